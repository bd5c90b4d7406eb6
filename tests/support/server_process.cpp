#include "support/server_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/build_paths.hpp"

namespace loupe::test {
namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

// fork + exec with stdout/stderr to `log_path`; returns the child's pid.
int spawn(const std::vector<std::string>& args, const std::string& log_path,
          const std::map<std::string, std::string>& environment) {
    int pid = ::fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        int null_fd = ::open("/dev/null", O_RDONLY);
        ::dup2(null_fd, 0);
        for (const auto& [name, value] : environment) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
        std::vector<char*> argv;
        for (const auto& arg : args) {
            argv.push_back(const_cast<char*>(arg.c_str()));
        }
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

}  // namespace

std::string tested_binary() {
    const char* other = std::getenv("LOUPE_TEST_BINARY");
    return other != nullptr && *other != '\0' ? other : LOUPE_TEST_BINARY;
}

std::string tested_plugin_dir() {
    const char* other = std::getenv("LOUPE_TEST_PLUGIN_DIR");
    return other != nullptr && *other != '\0' ? other : LOUPE_TEST_PLUGIN_DIR;
}

int run_loupe(const std::vector<std::string>& args, std::string& out,
              const std::map<std::string, std::string>& environment) {
    TempDir scratch;
    const auto log = scratch.path() + "/out.log";
    std::vector<std::string> full{tested_binary()};
    full.insert(full.end(), args.begin(), args.end());
    int pid = spawn(full, log, environment);
    int status = 0;
    ::waitpid(pid, &status, 0);
    out = read_file(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

ServerProcess::ServerProcess(ServerOptions options) : options_(std::move(options)) {
    start();
}

void ServerProcess::restart() {
    kill();
    start();
}

void ServerProcess::restart(std::vector<std::string> plugins) {
    options_.plugins = std::move(plugins);
    restart();
}

void ServerProcess::start() {
    // One log per start, so the "listening" line found is this start's.
    log_path_ = data_.path() + "/server-" + std::to_string(++starts_) + ".log";
    port_ = 0;
    std::vector<std::string> args{tested_binary()};
    auto common = common_args();
    args.insert(args.end(), common.begin(), common.end());
    args.push_back("serve");
    pid_ = spawn(args, log_path_, options_.environment);

    static const std::regex listening("loupe: listening on http://[^:]+:([0-9]+)");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        std::smatch match;
        const auto text = read_file(log_path_);
        if (std::regex_search(text, match, listening)) {
            port_ = std::stoi(match[1]);
            break;
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("loupe serve exited during start:\n" + text);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (port_ == 0) {
        kill();
        throw std::runtime_error("loupe serve did not start within 60 s:\n" + output());
    }
    const auto bootstrap = data_.path() + "/bootstrap.json";
    if (std::ifstream(bootstrap).good()) {
        auto credentials = nlohmann::json::parse(read_file(bootstrap));
        project_token_ = credentials.value("projectToken", "");
        personal_token_ = credentials.value("personalAccessToken", "");
    }
}

ServerProcess::~ServerProcess() {
    if (pid_ <= 0) {
        return;
    }
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 200; ++i) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

void ServerProcess::kill() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }
}

std::string ServerProcess::base_url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

std::string ServerProcess::listener_url(const std::string& name) const {
    const std::regex line("loupe: listener " + name + " at (\\S+) ");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (true) {
        std::smatch match;
        const auto text = read_file(log_path_);
        if (std::regex_search(text, match, line)) {
            return match[1];
        }
        if (std::chrono::steady_clock::now() > deadline) {
            throw std::runtime_error("loupe serve printed no listener " + name + ":\n" + text);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string ServerProcess::output() const {
    return read_file(log_path_);
}

std::vector<std::string> ServerProcess::common_args() const {
    return config_args(options_, database_.url(), data_.path());
}

std::vector<std::string> config_args(const ServerOptions& options, const std::string& database_url,
                                     const std::string& data_dir) {
    std::vector<std::string> args{
        "--config", std::string(LOUPE_TEST_SOURCE_DIR) + "/etc/loupe.properties",
        "--set",    "http.port=0",
        "--set",    "http.listen_address=127.0.0.1",
        "--set",    "http.threads=8",
        "--set",    "data.dir=" + data_dir,
        "--set",    "db.url=" + database_url,
        "--set",    "plugins.path=" + tested_plugin_dir(),
        "--set",    "log.level=info",
    };
    std::string enabled;
    for (const auto& plugin : options.plugins) {
        enabled += (enabled.empty() ? "" : ",") + plugin;
    }
    args.push_back("--set");
    args.push_back("plugins.enabled=" + enabled);
    for (const auto& [key, value] : options.settings) {
        args.push_back("--set");
        args.push_back(key + "=" + value);
    }
    return args;
}

int ServerProcess::run_cli(const std::vector<std::string>& args, std::string& out) const {
    auto full = common_args();
    full.insert(full.end(), args.begin(), args.end());
    return run_loupe(full, out, options_.environment);
}

}  // namespace loupe::test
