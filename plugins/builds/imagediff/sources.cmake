# The library's sources, relative to this directory; shared with tests/fuzz, which compiles
# its own instrumented copy.
set(LOUPE_IMAGEDIFF_SOURCES
  src/antialiasing.cpp
  src/argos_score.cpp
  src/canvas_scale.cpp
  src/compare.cpp
  src/compare_sweep.cpp
  src/cpu_features.cpp
  src/decode.cpp
  src/differ.cpp
  src/fingerprint.cpp
  src/image_size.cpp
  src/jpeg_decode.cpp
  src/pixel_memory.cpp
  src/pixel_scan.cpp
  src/png_decode.cpp
  src/png_encode.cpp
  src/png_fast_decode.cpp
  src/png_header.cpp
  src/png_unfilter.cpp
  src/png_unfilter_avx2.cpp)

# The per-pixel and per-byte loops, built with -O3. SIMD beyond SSE2 is used only through
# functions compiled for a specific target and chosen at run time, so the code runs on any
# x86-64: target attributes, and one file built with -mavx2 whose code only runs on AVX2 CPUs.
set(LOUPE_IMAGEDIFF_HOT_SOURCES
  src/antialiasing.cpp
  src/canvas_scale.cpp
  src/compare_sweep.cpp
  src/fingerprint.cpp
  src/pixel_scan.cpp
  src/png_fast_decode.cpp
  src/png_unfilter.cpp)
set(LOUPE_IMAGEDIFF_AVX2_SOURCES src/png_unfilter_avx2.cpp)

# loupe_imagediff_source_flags(TARGET PREFIX): per-file flags of the above on TARGET's sources,
# which are named PREFIX/src/....
function(loupe_imagediff_source_flags target prefix)
  foreach(file IN LISTS LOUPE_IMAGEDIFF_HOT_SOURCES)
    set_source_files_properties("${prefix}/${file}" TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS -O3)
  endforeach()
  set(avx2_flags -O3)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i.86)$")
    list(APPEND avx2_flags -mavx2)
  endif()
  foreach(file IN LISTS LOUPE_IMAGEDIFF_AVX2_SOURCES)
    set_source_files_properties("${prefix}/${file}" TARGET_DIRECTORY ${target}
      PROPERTIES COMPILE_OPTIONS "${avx2_flags}")
  endforeach()
endfunction()
