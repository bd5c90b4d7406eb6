// loupe_bench_diff CORPUS_DIR [RUNS]
//
// The in-process rows of bench/diff-vs-peers/run.sh. For every pair listed in
// CORPUS_DIR/corpus.tsv it prints one TSV row with the median over RUNS (default 3) of:
//   loupe_ms    Differ::diff_files (read + decode both files, both passes, mask PNG), one Differ
//               reused across all pairs
//   compare_ms  imagediff::compare on images decoded beforehand (both passes, no mask)
//   spng_ms     read + libspng decode of both files to RGBA8 (1 thread, CRC on, buffers reused)
//   lib_decode_ms  the decode time Loupe reports itself inside diff_files
//   masked_ms   compare_ms with eight masks drawn on the test (ignore regions spread over the
//               canvas: a clock, an ad, a carousel...), the cost of masks
// Every measurement is preceded by one untimed warm-up run on the same pair.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <loupe/imagediff/imagediff.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "spng_decode.hpp"

namespace imagediff = loupe::imagediff;

namespace {

/// Eight masks of a busy page, placed by fractions of the canvas (header clock, ad slots, a
/// carousel, avatars, a footer date), as a team draws them.
std::vector<imagediff::IgnoreRegion> spread_masks(uint32_t width, uint32_t height) {
    const double boxes[8][4] = {{0.85, 0.01, 0.12, 0.03}, {0.70, 0.10, 0.25, 0.20},
                                {0.05, 0.30, 0.40, 0.15}, {0.60, 0.40, 0.10, 0.10},
                                {0.20, 0.55, 0.05, 0.05}, {0.30, 0.65, 0.30, 0.10},
                                {0.75, 0.80, 0.20, 0.08}, {0.02, 0.95, 0.30, 0.04}};
    std::vector<imagediff::IgnoreRegion> regions;
    for (const auto& box : boxes) {
        regions.push_back(
            {static_cast<uint32_t>(box[0] * width), static_cast<uint32_t>(box[1] * height),
             static_cast<uint32_t>(box[2] * width), static_cast<uint32_t>(box[3] * height)});
    }
    return regions;
}

struct Pair {
    std::string name, base, head;
};

std::vector<Pair> read_corpus(const std::string& dir) {
    std::ifstream tsv(dir + "/corpus.tsv");
    if (!tsv) {
        throw std::runtime_error("no corpus.tsv in " + dir + " (run make-corpus.sh first)");
    }
    std::vector<Pair> pairs;
    std::string line;
    std::getline(tsv, line);  // header
    while (std::getline(tsv, line)) {
        const std::string name = line.substr(0, line.find('\t'));
        if (!name.empty()) {
            pairs.push_back({name, dir + "/" + name + ".base.png", dir + "/" + name + ".head.png"});
        }
    }
    return pairs;
}

std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Median wall time of fn() over `runs` timed calls, after one untimed warm-up call.
template <class Fn>
double median_ms(int runs, Fn&& fn) {
    fn();
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        const auto start = std::chrono::steady_clock::now();
        fn();
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    return median(times);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR [RUNS]\n", argv[0]);
        return 2;
    }
    const int runs = argc == 3 ? std::max(1, std::atoi(argv[2])) : 3;
    try {
        const std::vector<Pair> pairs = read_corpus(argv[1]);
        imagediff::Differ differ;
        imagediff::CompareOptions with_mask;  // threshold 0.5, mask PNG, all cores
        imagediff::CompareOptions counts_only;
        counts_only.want_mask = false;
        loupe::bench::SpngDecoder spng;
        imagediff::Image base, head;

        std::printf(
            "name\twidth\theight\tloupe_ms\tcompare_ms\tspng_ms\tlib_decode_ms\tbase_px\tcolor_"
            "px\tverdict\tmasked_ms\n");
        for (const Pair& pair : pairs) {
            imagediff::DiffResult result;
            std::vector<double> lib_decode;
            const double loupe_ms = median_ms(runs, [&] {
                result = differ.diff_files(pair.base, pair.head, with_mask);
                lib_decode.push_back(result.decode_ms);
            });
            lib_decode.erase(lib_decode.begin());  // drop the warm-up run

            imagediff::decode(read_file(pair.base), base);
            imagediff::decode(read_file(pair.head), head);
            const double compare_ms =
                median_ms(runs, [&] { imagediff::compare(base, head, counts_only); });
            imagediff::CompareOptions masked = counts_only;
            masked.ignore_regions =
                spread_masks(std::max(base.width, head.width), std::max(base.height, head.height));
            const double masked_ms =
                median_ms(runs, [&] { imagediff::compare(base, head, masked); });

            const double spng_ms = median_ms(runs, [&] {
                spng.decode_file(pair.base);
                spng.decode_file(pair.head);
            });

            std::printf(
                "%s\t%u\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%llu\t%llu\t%s\t%.3f\n", pair.name.c_str(),
                result.width, result.height, loupe_ms, compare_ms, spng_ms, median(lib_decode),
                static_cast<unsigned long long>(result.base_pass.differing_pixels),
                static_cast<unsigned long long>(result.color_pass.differing_pixels),
                result.verdict == imagediff::Verdict::changed ? "changed" : "unchanged", masked_ms);
            std::fflush(stdout);
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "loupe_bench_diff: %s\n", error.what());
        return 1;
    }
    return 0;
}
