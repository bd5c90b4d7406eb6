#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>

#include "argos_score.hpp"
#include "canvas_scale.hpp"
#include "compare_context.hpp"
#include "decode_context.hpp"
#include "stopwatch.hpp"

namespace loupe::imagediff {
namespace {

[[noreturn]] void fail_io(const char* what, const std::string& path) {
    throw std::system_error(errno, std::generic_category(), std::string(what) + " " + path);
}

struct FileDescriptor {
    int fd;
    ~FileDescriptor() { ::close(fd); }
};

// Straight into a buffer of the file's size (kept across calls): no stdio copy, no regrowth.
void read_file(const std::string& path, std::vector<uint8_t>& out) {
    const FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    const int fd = file.fd;
    if (fd < 0) {
        fail_io("cannot open", path);
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        fail_io("cannot read", path);
    }
    // A file that grows while it is read is read to its end; the size is only the first guess.
    out.resize(static_cast<size_t>(info.st_size) + 1);
    size_t filled = 0;
    for (;;) {
        if (filled == out.size()) {
            out.resize(out.size() * 2);
        }
        const ssize_t n = ::read(fd, out.data() + filled, out.size() - filled);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            fail_io("cannot read", path);
        }
        if (n == 0) {
            break;
        }
        filled += static_cast<size_t>(n);
    }
    out.resize(filled);
}

// Which side failed matters to the user: prefix the decoder's sentence with it.
[[noreturn]] void rethrow_for(const char* side, std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const DecodeError& e) {
        throw DecodeError(std::string(side) + " image: " + e.what());
    }
}

}  // namespace

struct Differ::State {
    DecodeContext base_context;
    DecodeContext head_context;
    Image base;
    Image head;
    CompareScratch compare_scratch;
    std::vector<uint8_t> base_file;
    std::vector<uint8_t> head_file;

    // Both images decode at once, the head on a second thread.
    void decode_pair(std::span<const uint8_t> base_bytes, std::span<const uint8_t> head_bytes,
                     const DecodeOptions& options) {
        std::future<void> head_job = std::async(
            std::launch::async, [&] { decode(head_bytes, head, options, head_context); });
        std::exception_ptr base_error;
        try {
            decode(base_bytes, base, options, base_context);
        } catch (...) {
            base_error = std::current_exception();
        }
        std::exception_ptr head_error;
        try {
            head_job.get();
        } catch (...) {
            head_error = std::current_exception();
        }
        if (base_error) {
            rethrow_for("Base", base_error);
        }
        if (head_error) {
            rethrow_for("Head", head_error);
        }
    }
};

Differ::Differ() : state_(new State) {}

Differ::~Differ() {
    delete state_;
}

DiffResult Differ::diff_bytes(std::span<const uint8_t> base, std::span<const uint8_t> head,
                              const CompareOptions& options, const DecodeOptions& decode_options) {
    State& state = *state_;
    const Stopwatch decode_time;

    // Same bytes, same pixels: only the header is read, for the dimensions and the limits.
    if (base.size() == head.size() && std::equal(base.begin(), base.end(), head.begin())) {
        if (!(options.threshold >= 0.0 && options.threshold <= 1.0)) {
            throw std::invalid_argument("diff: the threshold must be between 0 and 1");
        }
        Dimensions size;
        try {
            size = read_dimensions(base, decode_options, state.base_context);
        } catch (...) {
            rethrow_for("Base", std::current_exception());
        }
        DiffResult result;
        result.base_width = result.head_width = size.width;
        result.base_height = result.head_height = size.height;
        const CanvasSize canvas = fit_canvas({size.width, size.height}, options.max_canvas_pixels);
        result.width = canvas.width;
        result.height = canvas.height;
        apply_argos_rule(result, options.threshold);
        result.decode_ms = decode_time.elapsed_ms();
        return result;
    }

    state.decode_pair(base, head, decode_options);
    const double decode_ms = decode_time.elapsed_ms();
    // The decoded images are not needed afterwards: a canvas over the limit is scaled in place.
    DiffResult result = compare_in_place(state.base, state.head, options, state.compare_scratch);
    result.decode_ms = decode_ms;
    return result;
}

DiffResult Differ::diff_files(const std::string& base_path, const std::string& head_path,
                              const CompareOptions& options, const DecodeOptions& decode_options) {
    read_file(base_path, state_->base_file);
    read_file(head_path, state_->head_file);
    return diff_bytes(state_->base_file, state_->head_file, options, decode_options);
}

}  // namespace loupe::imagediff
