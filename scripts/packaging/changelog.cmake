# changelog.cmake — the Debian changelog of the package: one entry for the version being built.
# CMake script (cmake -P at build time, like version.h).  Why: dpkg and lintian want a changelog
# whose top entry is the package's version; the real history is the project's git log.
include("${SRC}/bench/version.cmake")
storebench_version_of("${SRC}" "${VERSION}" package sha)
# The commit's date, not the build's, so two builds of one tree give one changelog.
execute_process(COMMAND git -C "${SRC}" log -1 --format=%aD
  OUTPUT_VARIABLE date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR date STREQUAL "")
  set(date "Thu, 01 Jan 1970 00:00:00 +0000")
endif()
set(text "storebench (${package}) unstable; urgency=medium\n\n  * Built from git ${sha}; the changes are the project's git log.\n\n -- ${MAINTAINER}  ${date}\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text OR NOT EXISTS "${OUT}.gz")
  file(WRITE "${OUT}" "${text}")
  # gzip -n: no name or time stamp in the header, so one text gives one file.
  execute_process(COMMAND gzip -9n INPUT_FILE "${OUT}" OUTPUT_FILE "${OUT}.gz" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${OUT}: ${rc}")
  endif()
endif()
