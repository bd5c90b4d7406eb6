# LOUPE_SANITIZE=ON builds every target of the tree with ASan + UBSan: compile and link flags are
# set for the whole directory tree, so no executable can link instrumented code without the
# runtimes. The flag is part of the plugin build id, so a sanitized core refuses an unsanitized
# plugin and vice versa.
if(LOUPE_SANITIZE)
  add_compile_options(
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
    # Debian's libsoci_core does not export the typeinfo UBSan's vptr check needs.
    -fno-sanitize=vptr)
  add_link_options(-fsanitize=address,undefined)
endif()
