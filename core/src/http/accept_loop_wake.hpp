#pragma once
// Waking civetweb's accept loop out of a poll() it began on a descriptor that has since been
// pointed elsewhere.

namespace loupe {

/// Interrupts the poll() of every civetweb accept loop ("civetweb-master" threads) of the
/// process with a signal whose handler does nothing. poll() is never restarted after a handler
/// runs: the loop polls again, and that new poll() waits on what its descriptor is now. A
/// poll() in progress would instead keep waiting on the file it started with; once that file is
/// closed nothing wakes it before civetweb's 2 s step. A loop of another server in the process
/// just polls once more.
void interrupt_accept_loops();

}  // namespace loupe
