# warplatConfig.cmake - find_package(warplat) for CMake users; installed by
# `make install PREFIX=DIR` as DIR/lib/cmake/warplat/warplatConfig.cmake.
# It is relocatable: the prefix is found from this file's own place.
#
#   find_package(warplat REQUIRED)            # CMAKE_PREFIX_PATH=DIR
#   target_link_libraries(mykernel PRIVATE warplat::warplat)
#
# libwarplat.a calls the CUDA runtime, so the target brings the CUDA
# Toolkit's static runtime (CUDA::cudart_static) and zlib with it.
include(CMakeFindDependencyMacro)
find_dependency(CUDAToolkit)
get_filename_component(_warplat_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET warplat::warplat)
  add_library(warplat::warplat STATIC IMPORTED)
  set_target_properties(warplat::warplat PROPERTIES
    IMPORTED_LOCATION "${_warplat_prefix}/lib/libwarplat.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_warplat_prefix}/include"
    INTERFACE_LINK_LIBRARIES "CUDA::cudart_static;z;m;pthread")
endif()
set(warplat_FOUND TRUE)
unset(_warplat_prefix)
