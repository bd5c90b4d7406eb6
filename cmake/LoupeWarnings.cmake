# loupe_enable_warnings(target): the project's warning set, PRIVATE to the target.
# CI turns them into errors with -DCMAKE_COMPILE_WARNING_AS_ERROR=ON.
function(loupe_enable_warnings target)
  # Not -Wnull-dereference: GCC 12 reports it inside nlohmann::json's own code at -O2.
  # -Wno-restrict: GCC 12 false positives on std::string concatenation (GCC bug 105329).
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
    -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough
    $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
endfunction()
