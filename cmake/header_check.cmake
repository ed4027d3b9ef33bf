# Every public header compiles on its own with -Wall -Wextra -Werror, unused parameters included
# (the library's own build turns that one warning off; users' builds may not). Part of the
# default build, so a header that warns fails `make`.
file(GLOB_RECURSE PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/relaypass/*.h)
set(HEADER_CHECK_SOURCES)
foreach(header ${PUBLIC_HEADERS})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/include ${header})
  string(REPLACE "/" "__" stem ${rel})
  set(src ${PROJECT_BINARY_DIR}/header_check/${stem}.cc)
  file(CONFIGURE OUTPUT ${src} CONTENT "#include \"${rel}\"\n")
  list(APPEND HEADER_CHECK_SOURCES ${src})
endforeach()
add_library(header_check OBJECT ${HEADER_CHECK_SOURCES})
target_include_directories(header_check PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(header_check PRIVATE -Wall -Wextra -Werror -Wunused-parameter)
