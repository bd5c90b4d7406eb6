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
# The system folders: relative to the prefix too (PREFIX/etc/loupe/loupe.properties, data in
# PREFIX/var/lib/loupe), except with the /usr prefix of the Debian packages, where they are
# /etc/loupe, /var/lib/loupe and /lib/systemd/system (decided when installing:
# LoupeInstallSystemFiles.cmake.in).
set(LOUPE_INSTALL_SYSCONFDIR etc/loupe)
set(LOUPE_INSTALL_STATEDIR var/lib/loupe)
set(LOUPE_INSTALL_UNITDIR lib/systemd/system)
file(RELATIVE_PATH LOUPE_PLUGIN_DIR_FROM_BINDIR "/prefix/${LOUPE_INSTALL_BINDIR}"
  "/prefix/${LOUPE_INSTALL_PLUGINDIR}")
# The executable finds a prefix install's configuration through this path, compiled in.
file(RELATIVE_PATH LOUPE_SYSCONF_DIR_FROM_BINDIR "/prefix/${LOUPE_INSTALL_BINDIR}"
  "/prefix/${LOUPE_INSTALL_SYSCONFDIR}")
