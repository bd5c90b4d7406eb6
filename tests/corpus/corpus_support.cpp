#include "corpus_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <loupe/imagediff/imagediff.hpp>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;
namespace imagediff = loupe::imagediff;

namespace loupe::corpus {
namespace {

void write_file(const fs::path& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

imagediff::Image decode_file(const fs::path& path) {
    imagediff::Image image;
    imagediff::decode(read_file(path), image);
    return image;
}

imagediff::Image pad_top_left(const imagediff::Image& image, uint32_t width, uint32_t height) {
    imagediff::Image out;
    out.width = width;
    out.height = height;
    out.rgba.assign(size_t{width} * height * 4, 0);  // transparent black
    const size_t row_bytes = size_t{image.width} * 4;
    for (uint32_t y = 0; y < image.height; ++y) {
        std::memcpy(out.rgba.data() + size_t{y} * width * 4, image.rgba.data() + y * row_bytes,
                    row_bytes);
    }
    return out;
}

std::vector<CorpusPair> pairs_from_tsv(const fs::path& dir) {
    std::ifstream tsv(dir / "corpus.tsv");
    std::vector<CorpusPair> pairs;
    std::string line;
    std::getline(tsv, line);  // header: name base_w base_h head_w head_h expected page change
    while (std::getline(tsv, line)) {
        std::istringstream fields(line);
        std::string name, skip, expected;
        if (!std::getline(fields, name, '\t') || name.empty()) {
            continue;
        }
        for (int i = 0; i < 4; ++i) {
            std::getline(fields, skip, '\t');
        }
        std::getline(fields, expected, '\t');
        pairs.push_back({name, expected, dir / (name + ".base.png"), dir / (name + ".head.png")});
    }
    return pairs;
}

std::vector<CorpusPair> pairs_from_glob(const fs::path& dir) {
    const std::string suffix = ".base.png";
    std::vector<CorpusPair> pairs;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (file.size() <= suffix.size() || !file.ends_with(suffix)) {
            continue;
        }
        const std::string name = file.substr(0, file.size() - suffix.size());
        const fs::path head = dir / (name + ".head.png");
        if (fs::exists(head)) {
            pairs.push_back({name, "", entry.path(), head});
        }
    }
    std::sort(pairs.begin(), pairs.end(),
              [](const CorpusPair& a, const CorpusPair& b) { return a.name < b.name; });
    return pairs;
}

}  // namespace

std::vector<uint8_t> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<CorpusPair> list_pairs(const fs::path& dir) {
    return fs::exists(dir / "corpus.tsv") ? pairs_from_tsv(dir) : pairs_from_glob(dir);
}

TempDir::TempDir() {
    std::string pattern = (fs::temp_directory_path() / "loupe-corpus.XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a temporary directory from " + pattern);
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

OdiffInputs odiff_inputs(const CorpusPair& pair, const fs::path& scratch_dir) {
    const imagediff::Image base = decode_file(pair.base);
    const imagediff::Image head = decode_file(pair.head);
    OdiffInputs inputs{pair.base, pair.head, std::max(base.width, head.width),
                       std::max(base.height, head.height), false};
    if (base.width == head.width && base.height == head.height) {
        return inputs;
    }
    inputs.padded = true;
    if (base.width != inputs.width || base.height != inputs.height) {
        inputs.base = scratch_dir / (pair.name + ".base.padded.png");
        write_file(inputs.base,
                   imagediff::encode_png(pad_top_left(base, inputs.width, inputs.height)));
    }
    if (head.width != inputs.width || head.height != inputs.height) {
        inputs.head = scratch_dir / (pair.name + ".head.padded.png");
        write_file(inputs.head,
                   imagediff::encode_png(pad_top_left(head, inputs.width, inputs.height)));
    }
    return inputs;
}

}  // namespace loupe::corpus
