/*
 * cmdline.c — `storebench run`'s command line read once into struct cmdline.
 * Plain C.
 */
#include "cmdline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbflags.h"

int cmdline_read(int argc, char **argv, struct cmdline *cl)
{
	size_t len = sizeof "storebench run";
	int rc;

	*cl = (struct cmdline){ 0 };
	rc = options_collect(argc, argv, cl->given);
	if (rc)
		return rc;
	cl->gb = calloc((size_t)argc, sizeof *cl->gb);
	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cl->text = malloc(len);
	if (!cl->gb || !cl->text) {
		fprintf(stderr, "storebench run: out of memory\n");
		return 1;
	}
	strcpy(cl->text, "storebench run");
	for (int i = 1; i < argc; i++) {
		strcat(strcat(cl->text, " "), argv[i]);
		if (gbflag_is(argv[i]))
			cl->gb[cl->ngb++] = argv[i];
	}
	return 0;
}

void cmdline_free(struct cmdline *cl)
{
	free(cl->gb);
	free(cl->text);
	*cl = (struct cmdline){ 0 };
}
