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

void read_file(const std::string& path, std::vector<uint8_t>& out) {
    const std::unique_ptr<FILE, decltype(&std::fclose)> file(std::fopen(path.c_str(), "rb"),
                                                             std::fclose);
    if (!file) {
        throw std::system_error(errno, std::generic_category(), "cannot open " + path);
    }
    out.clear();
    uint8_t chunk[1 << 16];
    size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
        out.insert(out.end(), chunk, chunk + n);
    }
    if (std::ferror(file.get())) {
        throw std::system_error(errno, std::generic_category(), "cannot read " + path);
    }
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
