# kernel_rows.cmake — run by ctest each time it reads this folder's tests (TEST_INCLUDE_FILES):
# registers one test ${SB_TEST}.<name> per row of the binary's table.
# Inputs, set by the include file that tests/kernels/CMakeLists.txt generates:
#   SB_LIST     the storebench binary and the `list` arguments (`list`, `list --loads`)
#   SB_TEST     the test's name, the prefix of every row's test
#   SB_PROGRAM  the test program, run as `SB_PROGRAM <name>`
#   SB_CMAKE    cmake, which prints the failing test's reason
#   SB_KINDS    a regex on the kind column (the second), or empty for every row
# A binary that is not built or lists nothing registers one failing test that says so: a table
# that cannot be read must never leave its rows untested in silence.
execute_process(COMMAND ${SB_LIST} --tsv OUTPUT_VARIABLE table ERROR_VARIABLE why
                RESULT_VARIABLE rc)
string(REPLACE ";" "," table "${table}")
string(REPLACE "\n" ";" lines "${table}")
set(added 0)
set(header "")
foreach(line IN LISTS lines)
  if(NOT header)
    set(header "${line}")
    # the kind filter reads the second column, which must be the kind
    if(SB_KINDS AND NOT header MATCHES "^name\tkind\t")
      break()
    endif()
    continue()
  endif()
  if(NOT line MATCHES "^([a-z0-9_]+)\t([^\t]*)")
    continue()
  endif()
  set(name ${CMAKE_MATCH_1})
  if(SB_KINDS AND NOT CMAKE_MATCH_2 MATCHES "${SB_KINDS}")
    continue()
  endif()
  add_test(${SB_TEST}.${name} ${SB_PROGRAM} ${name})
  set_tests_properties(${SB_TEST}.${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS kernels)
  math(EXPR added "${added} + 1")
endforeach()
if(added EQUAL 0)
  string(REPLACE ";" " " shown "${SB_LIST}")
  add_test(${SB_TEST}.rows ${SB_CMAKE} -E echo
           "no rows for ${SB_TEST} from '${shown} --tsv' (exit ${rc}: ${why}); build first")
  set_tests_properties(${SB_TEST}.rows PROPERTIES WILL_FAIL TRUE LABELS kernels)
endif()
