// Memory around large diffs, measured on a real server process (/proc/<pid>/status): the diff
// engine gives a large pair's buffers back once it is done, and large pairs wait for the memory
// budget (plugins.builds.diff_memory_mb) instead of all decoding at once.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

#if defined(__SANITIZE_ADDRESS__)
// ASan's allocator quarantines freed memory and pads every block: resident memory says nothing
// about the server's own allocator there.
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

constexpr long long mib = 1024 * 1024;
// The server's diff memory budget: it holds one or two of the 16 MP pairs below, never all three.
constexpr int budget_mib = 350;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The pid of the `loupe serve` this test process started for `server` (the child whose
/// command line names its data folder).
int server_pid(const ServerProcess& server) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        const std::string stat = read_text(entry.path() / "stat");
        const auto after_name = stat.rfind(')');
        if (after_name == std::string::npos) {
            continue;
        }
        int parent = 0;
        char state = 0;
        if (std::sscanf(stat.c_str() + after_name + 1, " %c %d", &state, &parent) != 2 ||
            parent != ::getpid()) {
            continue;
        }
        if (read_text(entry.path() / "cmdline").find(server.data_dir()) != std::string::npos) {
            return std::stoi(name);
        }
    }
    FAIL("no server process found for " << server.data_dir());
    return -1;
}

/// A "VmRSS" or "VmHWM" line of /proc/<pid>/status, in bytes.
long long status_bytes(int pid, const std::string& field) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.starts_with(field + ":")) {
            return std::stoll(line.substr(field.size() + 1)) * 1024;  // "  123456 kB"
        }
    }
    FAIL("no " << field << " in /proc/" << pid << "/status");
    return 0;
}

/// Resident memory once it has stopped moving (a worker may still be finishing up).
long long settled_rss(int pid) {
    long long previous = status_bytes(pid, "VmRSS");
    for (int i = 0; i < 30; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const long long now = status_bytes(pid, "VmRSS");
        if (std::llabs(now - previous) < 2 * mib) {
            return now;
        }
        previous = now;
    }
    return previous;
}

/// Starts the peak (VmHWM) over from the current resident size.
void reset_peak(int pid) {
    std::ofstream("/proc/" + std::to_string(pid) + "/clear_refs") << "5";
}

ServerProcess& shared_server() {
    static ServerProcess instance(ServerOptions{
        {"auth", "builds"},
        {{"jobs.workers", "3"}, {"plugins.builds.diff_memory_mb", std::to_string(budget_mib)}},
        {}});
    return instance;
}

/// Pushes a build of `shots` on main under the build name `name` (its parent commit:
/// `parent`, the previous build's) and waits for its conclusion.
json pushed(const ServerProcess& server, const std::string& name, char commit,
            const std::vector<Shot>& shots, std::optional<char> parent = std::nullopt) {
    json body = {{"commit", sha(commit)}, {"branch", "main"}, {"name", name}};
    if (parent) {
        body["parentCommits"] = {sha(commit), sha(*parent)};
    }
    return wait_concluded(server, push_shots(server, shots, body)["number"].get<int64_t>());
}

void check_all_changed(const ServerProcess& server, const json& build) {
    REQUIRE(build["status"] != "error");
    const json diffs = list_diffs(server, build["number"].get<int64_t>())["results"];
    CHECK(!diffs.empty());
    for (const auto& diff : diffs) {
        CHECK(diff["status"] == "changed");
    }
}

}  // namespace

TEST_CASE("diff memory: after a 100 MP diff the idle server gives the memory back") {
    if (sanitized) {
        MESSAGE("resident memory is not measured under AddressSanitizer");
        return;
    }
    ServerProcess& server = shared_server();
    const int pid = server_pid(server);
    pushed(server, "large", '1', {{"page", gradient_png("page", 10000, 10000)}});
    const long long before = settled_rss(pid);
    reset_peak(pid);

    const json build =
        pushed(server, "large", '2',
               {{"page", gradient_png("page", 10000, 10000, Paint{100, 100, 400, 300})}}, '1');
    check_all_changed(server, build);
    const long long peak = status_bytes(pid, "VmHWM");
    const long long after = settled_rss(pid);
    MESSAGE("resident MiB before " << before / mib << ", peak " << peak / mib << ", after "
                                   << after / mib);
    CHECK(peak - before > 700 * mib);  // the pair really was decoded whole: 4 bytes a pixel each
    CHECK(after - before < 50 * mib);
}

TEST_CASE("diff memory: large diffs wait for the budget instead of decoding all at once") {
    if (sanitized) {
        MESSAGE("resident memory is not measured under AddressSanitizer");
        return;
    }
    ServerProcess& server = shared_server();
    const int pid = server_pid(server);
    // Three 16 MP pairs on three workers, each estimated at more than a third of the budget
    // (decoded, each image alone takes 64 MB): all three at once would not fit.
    std::vector<Shot> base;
    std::vector<Shot> head;
    for (const std::string name : {"one", "two", "three"}) {
        base.push_back({name, gradient_png(name, 4000, 4000)});
        head.push_back({name, gradient_png(name, 4000, 4000, Paint{10, 10, 300, 200})});
    }
    pushed(server, "budget", '3', base);
    const long long before = settled_rss(pid);
    reset_peak(pid);

    check_all_changed(server, pushed(server, "budget", '4', head, '3'));
    const long long peak = status_bytes(pid, "VmHWM");
    MESSAGE("resident MiB before " << before / mib << ", peak " << peak / mib << " (budget "
                                   << budget_mib << ")");
    CHECK(peak - before > 100 * mib);  // the diffs did run (one pair decoded: 128 MB)
    CHECK(peak - before <= budget_mib * mib);
}
