# Where `cmake --install` and the Debian packages put Loupe (relative to the install prefix
# unless absolute). The executable finds its plugins through the path from BINDIR to
# PLUGINDIR, compiled in, so an installed tree works under any prefix without flags.
set(LOUPE_INSTALL_BINDIR bin)
# libloupe-core is private to Loupe and its plugins: it lives in Loupe's own folder, found
# through the executable's RUNPATH (and by the plugins from the already loaded core).
set(LOUPE_INSTALL_LIBDIR lib/loupe)
set(LOUPE_INSTALL_PLUGINDIR lib/loupe/plugins)
set(LOUPE_INSTALL_INCLUDEDIR include)
set(LOUPE_INSTALL_CMAKEDIR lib/cmake/Loupe)
set(LOUPE_INSTALL_DOCDIR share/doc/loupe)
set(LOUPE_INSTALL_SYSCONFDIR /etc/loupe CACHE PATH
  "Folder of the installed loupe.properties (the executable looks in /etc/loupe)")
set(LOUPE_INSTALL_UNITDIR /lib/systemd/system CACHE PATH "Folder of the systemd unit")
set(LOUPE_DATA_DIR /var/lib/loupe CACHE PATH "data.dir of the installed configuration")
file(RELATIVE_PATH LOUPE_PLUGIN_DIR_FROM_BINDIR "/prefix/${LOUPE_INSTALL_BINDIR}"
  "/prefix/${LOUPE_INSTALL_PLUGINDIR}")
