# cpack_project.cmake — CPack's per-run settings: the package version, taken when cpack runs.
# CMake (CPACK_PROJECT_CONFIG_FILE).  Why: the version must be the one the packaged binary prints,
# and a configure done before the last commit would carry a stale one.
include("${CPACK_STOREBENCH_SOURCE_DIR}/bench/version.cmake")
storebench_version_of("${CPACK_STOREBENCH_SOURCE_DIR}" "${CPACK_STOREBENCH_VERSION}" sb_package sb_sha)
set(CPACK_PACKAGE_VERSION "${sb_package}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${sb_package}")
