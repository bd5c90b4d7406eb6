// Private files: created whole with mode 0600 (parent folders too), never replaced once there,
// so instances sharing a folder all read the first writer's content; no temporary is left.
#include "loupe/files/private_file.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace {

std::string content_of(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("a private file is created whole, mode 0600, and never replaced") {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("loupe-private-file-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const auto path = dir / "nested" / "secret.key";

    CHECK(loupe::files::create_private_file(path.string(), "first\n"));
    CHECK(content_of(path) == "first\n");
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);

    CHECK_FALSE(loupe::files::create_private_file(path.string(), "second\n"));
    CHECK(content_of(path) == "first\n");

    // Racing writers: exactly one wins, and everyone then reads its content.
    const auto raced = dir / "raced.key";
    std::vector<std::thread> writers;
    writers.reserve(8);
    std::vector<int> won(8, 0);
    for (int i = 0; i < 8; ++i) {
        writers.emplace_back([&, i] {
            won[static_cast<std::size_t>(i)] =
                loupe::files::create_private_file(raced.string(), "writer " + std::to_string(i))
                    ? 1
                    : 0;
        });
    }
    for (auto& writer : writers) {
        writer.join();
    }
    int winners = 0;
    for (std::size_t i = 0; i < won.size(); ++i) {
        if (won[i] == 1) {
            ++winners;
            CHECK(content_of(raced) == "writer " + std::to_string(i));
        }
    }
    CHECK(winners == 1);
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        CHECK_MESSAGE(!entry.path().string().ends_with(".tmp"), entry.path().string());
    }
    std::filesystem::remove_all(dir);
}
