#pragma once
// Corpus helpers for the agreement test: list the pairs of a make-corpus.sh directory and pad
// pairs of different sizes the way Argos does before it calls odiff.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace loupe::corpus {

struct CorpusPair {
    std::string name;
    std::string expected;  ///< identical / changed / antialias-only ("" without corpus.tsv)
    std::filesystem::path base;
    std::filesystem::path head;
};

/// The whole file; throws std::runtime_error when it cannot be read.
std::vector<uint8_t> read_file(const std::filesystem::path& path);

/// Pairs listed in DIR/corpus.tsv, or every DIR/NAME.base.png with a NAME.head.png beside it.
std::vector<CorpusPair> list_pairs(const std::filesystem::path& dir);

/// A fresh directory under the system temp directory, removed with its content on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// The files odiff compares: the originals when both sides have the same size, otherwise copies
/// padded to the larger width and height (transparent black, anchored top-left, as Argos's sharp
/// `contain` + `left top` does when only padding is needed).
struct OdiffInputs {
    std::filesystem::path base;
    std::filesystem::path head;
    uint32_t width = 0;
    uint32_t height = 0;
    bool padded = false;
};

OdiffInputs odiff_inputs(const CorpusPair& pair, const std::filesystem::path& scratch_dir);

}  // namespace loupe::corpus
