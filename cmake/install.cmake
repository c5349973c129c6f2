# routesim: what `cmake --install` (and `make install PREFIX=...`) puts where: the binary,
# the static and shared library, the public headers, routesim.pc, the man pages, the shipped
# experiments (found by the installed binary relative to itself: BINDIR/../share/routesim/
# experiments) and the Python module. Included from CMakeLists.txt.
include(GNUInstallDirs)

# Headers that are mostly internals (rs__ names: the fat-tree, pruned-butterfly, sorting
# fat-tree, LCAN, Bay-Bilardi and multi-stage line internals, the line reader, the
# expression evaluator, huge-page allocation, contract assertions, the inverse omega
# permutation) and the one public header that needs them (load_factor.h takes a struct
# rs__ftree) stay private: every other header under include/routesim/ is installed and
# compiles on its own (tests/cli/install.sh checks each one).
set(RS_PRIVATE_HEADERS assert.h bay_bilardi.h expr.h hugemem.h lcan.h line_reader.h
    load_factor.h ms_line.h omega.h pruned_butterfly.h sorting_fat_tree.h)
file(GLOB RS_ALL_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/routesim/*.h)
set(RS_PUBLIC_HEADERS "")
foreach(h ${RS_ALL_HEADERS})
  get_filename_component(base ${h} NAME)
  if(NOT base IN_LIST RS_PRIVATE_HEADERS)
    list(APPEND RS_PUBLIC_HEADERS ${h})
  endif()
endforeach()

install(TARGETS routesim DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS routesim_lib routesim_shared
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${RS_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/routesim)
# routesim.pc names its prefix relative to itself, so an installed tree may be moved.
file(RELATIVE_PATH RS_PC_UP ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" RS_PC_UP "${RS_PC_UP}")
set(RS_PC_PREFIX "\${pcfiledir}/${RS_PC_UP}")
# a sanitizer build's library needs its runtime in every program that links it
set(RS_PC_SANITIZE "")
if(RS_SANITIZE)
  set(RS_PC_SANITIZE "-fsanitize=address,undefined")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/routesim.pc.in ${CMAKE_BINARY_DIR}/routesim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/routesim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(DIRECTORY ${CMAKE_BINARY_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        FILES_MATCHING PATTERN "*.1")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/experiments/ DESTINATION ${CMAKE_INSTALL_DATADIR}/routesim/experiments)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/routesim DESTINATION ${CMAKE_INSTALL_LIBDIR}/python3/dist-packages
        FILES_MATCHING PATTERN "*.py")
install(FILES ${CMAKE_SOURCE_DIR}/examples/run_metrics.c ${CMAKE_SOURCE_DIR}/examples/sweep.py
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
