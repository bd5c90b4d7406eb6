# loupe_enable_warnings(target): the project's warning set, PRIVATE to the target.
# CI turns them into errors with -DCMAKE_COMPILE_WARNING_AS_ERROR=ON.
function(loupe_enable_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
    -Woverloaded-virtual -Wnull-dereference -Wformat=2 -Wimplicit-fallthrough)
endfunction()
