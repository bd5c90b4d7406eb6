# loupe_enable_sanitizers(target): ASan + UBSan when LOUPE_SANITIZE is ON. The flag is part
# of the plugin build id, so a sanitized core refuses an unsanitized plugin and vice versa.
function(loupe_enable_sanitizers target)
  if(LOUPE_SANITIZE)
    target_compile_options(${target} PRIVATE
      -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
      # Debian's libsoci_core does not export the typeinfo UBSan's vptr check needs.
      -fno-sanitize=vptr)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
