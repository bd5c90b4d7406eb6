// loupe_provider_standin: the GitHub/GitLab stand-in of the C++ tests as a process, for the
// node end-to-end tests. Prints "standin: listening on <url>" and serves until SIGTERM/SIGINT.
//   loupe_provider_standin [--app-id ID] [--public-key FILE]
// Set its data with PUT /_standin/data; read pushes with GET /_standin/statuses.
#include <signal.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "support/provider_standin.hpp"

int main(int argc, char** argv) {
    loupe::test::StandinOptions options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        if (name == "--app-id") {
            options.app_id = argv[i + 1];
        } else if (name == "--public-key") {
            std::ifstream in(argv[i + 1]);
            std::stringstream pem;
            pem << in.rdbuf();
            options.app_public_key_pem = pem.str();
        } else {
            std::cerr << "unknown option " << name << "\n";
            return 2;
        }
    }
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // before the server's threads start
    loupe::test::ProviderStandin standin(options);
    std::cout << "standin: listening on " << standin.base_url() << std::endl;
    int received = 0;
    sigwait(&signals, &received);
    return 0;
}
