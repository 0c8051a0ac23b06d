# script_man.cmake — storebench-<name>(1), the man page of an installed script, from its --help.
# CMake script (cmake -P at build time): NAME, SCRIPT (the source file), OUT (.1.gz).
# Why: every command in bin/ has a page (man storebench-plot), and a page that is the script's
# own --help cannot drift from it; the one-line summary is the script's header comment.
file(STRINGS "${SCRIPT}" header LIMIT_COUNT 2 ENCODING UTF-8)
list(GET header 1 summary)
string(REGEX REPLACE "^# *[^ ]+ +— +" "" summary "${summary}")
# A header comment that runs on to its next line is cut before its open parenthesis.
string(REGEX REPLACE " *\\([^)]*$" "" summary "${summary}")
string(REGEX REPLACE "\\.$" "" summary "${summary}")
execute_process(COMMAND "${SCRIPT}" --help OUTPUT_VARIABLE help
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SCRIPT} --help: exit ${rc}: ${err}")
endif()
# roff: backslashes escaped, every hyphen a minus sign (these are commands and options, to be
# typed), no line starting with a control character; the text keeps its own line breaks.
foreach(var summary help)
  string(REPLACE "\\" "\\e" ${var} "${${var}}")
  string(REPLACE "-" "\\-" ${var} "${${var}}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" ${var} "${${var}}")
endforeach()
string(REPLACE "-" "\\-" title_name "${NAME}")
string(TOUPPER "${NAME}" upper)
string(CONCAT page ".\\\" storebench-${NAME}(1) — generated from scripts/${NAME} --help; edit the script.\n"
  ".TH STOREBENCH-${upper} 1 \"\" \"storebench\" \"User Commands\"\n.nh\n"
  ".SH NAME\nstorebench\\-${title_name} \\- ${summary}\n"
  ".SH DESCRIPTION\nThe installed \\fBscripts/${title_name}\\fR of storebench; it runs the "
  "\\fBstorebench\\fR beside it (\\fBSTOREBENCH_BIN\\fR names another).\n"
  ".PP\n.nf\n${help}.fi\n.SH SEE ALSO\n.BR storebench (1)\n")
get_filename_component(dir "${OUT}" DIRECTORY)
set(raw "${dir}/storebench-${NAME}.1")
file(WRITE "${raw}" "${page}")
execute_process(COMMAND gzip -9n INPUT_FILE "${raw}" OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${raw}: ${rc}")
endif()
