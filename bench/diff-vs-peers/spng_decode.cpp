#include "spng_decode.hpp"

#include <spng.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace loupe::bench {
namespace {

struct CtxDeleter {
    void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

void check(int rc, const std::string& path) {
    if (rc != 0) {
        throw std::runtime_error(path + ": " + spng_strerror(rc));
    }
}

void read_into(const std::string& path, std::vector<uint8_t>& bytes) {
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file || std::fseek(file.get(), 0, SEEK_END) != 0) {
        throw std::runtime_error("cannot read " + path);
    }
    const long size = std::ftell(file.get());
    std::rewind(file.get());
    bytes.resize(static_cast<size_t>(size < 0 ? 0 : size));
    if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
        throw std::runtime_error("short read on " + path);
    }
}

}  // namespace

uint64_t SpngDecoder::decode_file(const std::string& path) {
    read_into(path, file_);
    std::unique_ptr<spng_ctx, CtxDeleter> ctx(spng_ctx_new(0));
    if (!ctx) {
        throw std::runtime_error("spng_ctx_new failed");
    }
    check(spng_set_png_buffer(ctx.get(), file_.data(), file_.size()), path);
    spng_ihdr ihdr{};
    check(spng_get_ihdr(ctx.get(), &ihdr), path);
    size_t size = 0;
    check(spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size), path);
    if (rgba_.size() < size) {
        rgba_.resize(size);  // grows once per larger size; later decodes reuse touched pages
    }
    check(spng_decode_image(ctx.get(), rgba_.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS), path);
    return uint64_t{ihdr.width} * ihdr.height;
}

}  // namespace loupe::bench
