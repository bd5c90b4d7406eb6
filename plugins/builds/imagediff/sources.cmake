# The library's sources, relative to this directory; shared with tests/fuzz, which compiles
# its own instrumented copy.
set(LOUPE_IMAGEDIFF_SOURCES
  src/antialiasing.cpp
  src/argos_score.cpp
  src/compare.cpp
  src/compare_sweep.cpp
  src/decode.cpp
  src/differ.cpp
  src/jpeg_decode.cpp
  src/pixel_scan.cpp
  src/png_decode.cpp
  src/png_encode.cpp
  src/png_fast_decode.cpp
  src/png_header.cpp
  src/png_unfilter.cpp)

# The per-pixel and per-byte loops. SIMD beyond SSE2 is used only through functions compiled
# for a specific target and chosen at run time, so the code runs on any x86-64.
set(LOUPE_IMAGEDIFF_HOT_SOURCES
  src/antialiasing.cpp
  src/compare_sweep.cpp
  src/pixel_scan.cpp
  src/png_fast_decode.cpp
  src/png_unfilter.cpp)
