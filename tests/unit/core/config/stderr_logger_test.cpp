// Tests for core/src/log (kept beside the config tests: the data engineer owns both areas).
#include "log/stderr_logger.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

#include "log/log_line.hpp"
#include "support/test_database.hpp"

namespace {

// Points file descriptor 2 at a file while alive.
class CapturedStderr {
public:
    explicit CapturedStderr(const std::string& path) : saved_(::dup(STDERR_FILENO)), path_(path) {
        const int file = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
        ::dup2(file, STDERR_FILENO);
        ::close(file);
    }
    ~CapturedStderr() { restore(); }
    CapturedStderr(const CapturedStderr&) = delete;
    CapturedStderr& operator=(const CapturedStderr&) = delete;

    std::vector<std::string> lines() {
        restore();
        std::ifstream in(path_);
        std::vector<std::string> result;
        for (std::string line; std::getline(in, line);) {
            result.push_back(line);
        }
        return result;
    }

private:
    void restore() {
        if (saved_ >= 0) {
            ::dup2(saved_, STDERR_FILENO);
            ::close(saved_);
            saved_ = -1;
        }
    }
    int saved_;
    std::string path_;
};

}  // namespace

TEST_CASE("log: a line is ts, level, plugin, event, then fields in order") {
    const auto time =
        std::chrono::system_clock::time_point(std::chrono::milliseconds(1795341600123));
    const auto line = loupe::format_log_line(time, loupe::LogLevel::info, "builds", "x",
                                             {{"key", "value"}, {"id", "12"}});
    CHECK(line == "ts=2026-11-22T10:00:00.123Z level=info plugin=builds event=x key=value id=12");
    CHECK(loupe::format_log_line(time, loupe::LogLevel::warn, "", "started", {}) ==
          "ts=2026-11-22T10:00:00.123Z level=warn event=started");
}

TEST_CASE("log: values with spaces, quotes, = or control characters are quoted and escaped") {
    CHECK(loupe::log_value("plain-value/1.2") == "plain-value/1.2");
    CHECK(loupe::log_value("two words") == "\"two words\"");
    CHECK(loupe::log_value("a=b") == "\"a=b\"");
    CHECK(loupe::log_value("say \"hi\"") == "\"say \\\"hi\\\"\"");
    CHECK(loupe::log_value("line\nbreak") == "\"line\\nbreak\"");
    CHECK(loupe::log_value("back\\slash") == "\"back\\\\slash\"");
    CHECK(loupe::log_value("") == "\"\"");
}

TEST_CASE("log: parse_level knows the four levels and refuses others") {
    CHECK(loupe::StderrLogger::parse_level("debug") == loupe::LogLevel::debug);
    CHECK(loupe::StderrLogger::parse_level("info") == loupe::LogLevel::info);
    CHECK(loupe::StderrLogger::parse_level("warn") == loupe::LogLevel::warn);
    CHECK(loupe::StderrLogger::parse_level("error") == loupe::LogLevel::error);
    CHECK_THROWS_WITH_AS(loupe::StderrLogger::parse_level("loud"), doctest::Contains("loud"),
                         std::runtime_error);
}

TEST_CASE("log: lines below the minimum level are dropped, threads never interleave lines") {
    loupe::test::TempDir dir;
    constexpr int threads = 4;
    constexpr int per_thread = 300;
    std::vector<std::string> lines;
    {
        CapturedStderr captured(dir.path() + "/stderr.txt");
        loupe::StderrLogger logger("builds", loupe::LogLevel::info);
        logger.debug("hidden");
        std::vector<std::thread> writers;
        for (int t = 0; t < threads; ++t) {
            writers.emplace_back([&logger, t] {
                const std::string padding(500, static_cast<char>('a' + t));
                for (int i = 0; i < per_thread; ++i) {
                    logger.info("tick", {{"thread", std::to_string(t)},
                                         {"i", std::to_string(i)},
                                         {"pad", padding}});
                }
            });
        }
        for (auto& writer : writers) {
            writer.join();
        }
        lines = captured.lines();
    }
    REQUIRE(lines.size() == threads * per_thread);
    const std::regex prefix(
        R"(ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=info plugin=builds event=tick )"
        R"(thread=(\d) i=\d+)");
    int malformed = 0;
    for (const auto& line : lines) {
        const auto pad = line.find(" pad=");
        std::smatch match;
        const auto head = line.substr(0, pad);
        if (pad == std::string::npos || !std::regex_match(head, match, prefix) ||
            line.substr(pad + 5) !=
                std::string(500, static_cast<char>('a' + std::stoi(match[1].str())))) {
            ++malformed;
        }
    }
    CHECK(malformed == 0);
}
