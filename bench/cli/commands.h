/*
 * commands.h — the storebench subcommands, one file each, dispatched from main.c.
 * Plain C, no ISA flags: a subcommand never runs a kernel the CPU check has not cleared.
 * Each returns the process exit status: 0 success, 1 run failure, 2 bad input.
 */
#ifndef STOREBENCH_COMMANDS_H
#define STOREBENCH_COMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_class(int argc, char **argv);
int cmd_capture(int argc, char **argv);

#endif
