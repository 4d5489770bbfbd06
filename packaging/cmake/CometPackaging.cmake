# Desktop integration, manual pages and the Debian package (CPack DEB) of COMET Explorer.
# Included from the top-level CMakeLists.txt. docs/packaging.md describes what goes where;
# tests/packaging/check_deb.sh proves the .deb end to end (CTest `package_deb`, opt-in).
#
#   cmake --preset release && cmake --build --preset release && (cd build/release && cpack -G DEB)
#   or simply: packaging/build-deb.sh

# One reverse-DNS id for the desktop file, the AppStream component, the icon and the MIME package.
set(COMET_APP_ID "io.github.comet_explorer.CometExplorer")
set(COMET_HOMEPAGE_URL "https://github.com/comet-explorer/comet-explorer" CACHE STRING
    "Project home page, used in the AppStream metadata (also for the screenshot URLs) and the .deb")
set(COMET_PACKAGE_MAINTAINER "COMET Explorer maintainers <maintainers@comet-explorer.invalid>" CACHE STRING
    "Maintainer field of the .deb")
# The repository has no LICENSE file yet. AppStream needs an SPDX expression: change this (and
# packaging/copyright) when the project picks a licence.
set(COMET_PROJECT_LICENSE "LicenseRef-proprietary" CACHE STRING "SPDX licence expression of the project")
# Release date of PROJECT_VERSION, for the AppStream <release> and the manual pages: bump it
# together with the version in project(). A fixed date keeps the package reproducible.
set(COMET_RELEASE_DATE "2026-11-30")

option(COMET_TEST_PACKAGE
       "Register the CTest test package_deb (builds a Release tree and the .deb, takes minutes)" OFF)

set(_comet_pkg_src "${PROJECT_SOURCE_DIR}/packaging")
set(_comet_pkg_gen "${PROJECT_BINARY_DIR}/packaging")
set(_comet_icons "${PROJECT_SOURCE_DIR}/resources/icons/hicolor")
# Debian wants the package's documents in /usr/share/doc/<package>, not ${CMAKE_INSTALL_DOCDIR}
# (share/doc/comet_explorer, after the project name).
set(_comet_docdir "${CMAKE_INSTALL_DATADIR}/doc/comet-explorer")

# Manual pages: hand-written roff with @PROJECT_VERSION@ and @COMET_RELEASE_DATE@, compressed
# reproducibly (gzip -9n: no name, no time stamp) at build time.
set(_comet_manpages comet-cli)
if(COMET_BUILD_GUI)
  list(APPEND _comet_manpages comet-explorer)
endif()
set(_comet_manpage_gz "")
foreach(page IN LISTS _comet_manpages)
  configure_file("${_comet_pkg_src}/${page}.1" "${_comet_pkg_gen}/man/${page}.1" @ONLY)
  add_custom_command(
    OUTPUT "${_comet_pkg_gen}/${page}.1.gz"
    COMMAND sh -c "gzip -9 -n -c \"$0\" > \"$1\"" "${_comet_pkg_gen}/man/${page}.1" "${_comet_pkg_gen}/${page}.1.gz"
    DEPENDS "${_comet_pkg_gen}/man/${page}.1"
    COMMENT "Compressing the manual page ${page}.1"
    VERBATIM)
  list(APPEND _comet_manpage_gz "${_comet_pkg_gen}/${page}.1.gz")
endforeach()
add_custom_target(comet_manpages ALL DEPENDS ${_comet_manpage_gz})
install(FILES ${_comet_manpage_gz} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")

# Debian's copyright and changelog files.
add_custom_command(
  OUTPUT "${_comet_pkg_gen}/changelog.gz"
  COMMAND sh -c "gzip -9 -n -c \"$0\" > \"$1\"" "${_comet_pkg_src}/changelog" "${_comet_pkg_gen}/changelog.gz"
  DEPENDS "${_comet_pkg_src}/changelog"
  VERBATIM)
add_custom_target(comet_changelog ALL DEPENDS "${_comet_pkg_gen}/changelog.gz")
install(FILES "${_comet_pkg_src}/copyright" "${_comet_pkg_gen}/changelog.gz" DESTINATION "${_comet_docdir}")

# Desktop entry, AppStream metadata, icons and the scenario MIME type: the GUI only.
if(COMET_BUILD_GUI)
  configure_file("${_comet_pkg_src}/${COMET_APP_ID}.metainfo.xml.in" "${_comet_pkg_gen}/${COMET_APP_ID}.metainfo.xml" @ONLY)
  install(FILES "${_comet_pkg_src}/${COMET_APP_ID}.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${_comet_pkg_gen}/${COMET_APP_ID}.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  install(FILES "${_comet_pkg_src}/${COMET_APP_ID}.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages")
  install(FILES "${_comet_icons}/scalable/apps/${COMET_APP_ID}.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
  foreach(size 16 32 48 64 128 256)
    install(FILES "${_comet_icons}/${size}x${size}/apps/${COMET_APP_ID}.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps")
  endforeach()
endif()

# CPack: `cpack -G DEB` in the build tree writes comet-explorer_<version>_<arch>.deb.
set(CPACK_PACKAGE_NAME "comet-explorer")
set(CPACK_PACKAGE_VENDOR "COMET Explorer")
set(CPACK_PACKAGE_CONTACT "${COMET_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${COMET_HOMEPAGE_URL}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "what-if model of large-model training on clusters")
set(CPACK_PACKAGE_DESCRIPTION
    "COMET Explorer answers what-if questions about training large models on GPU
clusters: how much faster a model trains with more HBM bandwidth, a faster or
slower scale-out network, a CXL memory tier or another parallelization
strategy. It models the workload, the strategy, the node and the cluster
together (COMET methodology) and reports the iteration time split into
compute, pipeline bubble, exposed communication and exposed memory time, the
memory footprint per tier and whether the configuration fits.

The package contains the Qt desktop explorer (heatmaps, design comparison,
cost and sensitivity, PDF reports), the command-line tool comet-cli and
presets for current accelerator nodes and published models.")
set(CPACK_GENERATOR "DEB")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${COMET_HOMEPAGE_URL}")
set(CPACK_DEBIAN_COMPRESSION_TYPE "xz")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# dpkg-shlibdeps computes the Qt, TBB and C++ runtime dependencies (needs `file` and dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(COMET_BUILD_GUI)
  # The xcb/wayland/offscreen platform plugins are only a Recommends of libqt6gui6, and without
  # one the explorer cannot start (nor comet-cli report draw its charts).
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
  # The hicolor theme directories and the MIME database are other packages' triggers.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme, shared-mime-info")
endif()
include(CPack)
