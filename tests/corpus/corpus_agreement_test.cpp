// Runs Loupe's diff engine and odiff (as Argos runs it: two passes, padded inputs) on every pair
// of a make-corpus.sh corpus and checks that (a) Loupe's verdict equals Argos's rule applied to
// odiff's exact counts and (b) each pass's differing-pixel count is within 1% of odiff's, unless
// allow_list.hpp explains the difference for that pair and pass. When Loupe reports a change, its
// diff mask must also be pixel-identical to odiff's mask for the chosen pass (Argos hashes and
// fingerprints that mask).
//
// Environment: LOUPE_CORPUS_DIR (default: bench/corpus in the source tree; the test is skipped
// when the directory does not exist), LOUPE_ODIFF (default: the binary npm installs in bench/).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <loupe/imagediff/imagediff.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "allow_list.hpp"
#include "argos_rule.hpp"
#include "corpus_support.hpp"
#include "odiff_runner.hpp"

namespace fs = std::filesystem;
namespace imagediff = loupe::imagediff;
using namespace loupe::corpus;

namespace {

std::string env_or(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? value : fallback;
}

bool within_one_percent(uint64_t loupe, uint64_t odiff) {
    const uint64_t delta = loupe > odiff ? loupe - odiff : odiff - loupe;
    return delta * 100 <= odiff;
}

const char* verdict_name(bool changed) {
    return changed ? "changed" : "unchanged";
}

// Argos's verdict from odiff's printed (2-decimal) percentages: what Argos reports today.
bool argos_changed_rounded(const OdiffResult& pass1, const OdiffResult& pass2, uint64_t pixels) {
    const auto fraction = [](const OdiffResult& r) {
        return r.count == 0 ? 0.0 : std::strtod(r.percentage.c_str(), nullptr) / 100.0;
    };
    return argos_changed(fraction(pass1), fraction(pass2), pixels);
}

// True when the PNG bytes decode to the same RGBA pixels as the PNG file.
bool same_pixels(const std::vector<uint8_t>& png, const fs::path& file) {
    imagediff::Image ours, theirs;
    imagediff::decode(png, ours);
    imagediff::decode(read_file(file), theirs);
    return ours.width == theirs.width && ours.height == theirs.height && ours.rgba == theirs.rgba;
}

void check_count(const std::string& pair, int pass, uint64_t loupe, uint64_t odiff) {
    const AllowedDifference* allowed = find_allowed(pair, pass);
    const bool close = within_one_percent(loupe, odiff);
    if (close && allowed != nullptr) {
        WARN_MESSAGE(false, pair << " pass " << pass << ": allow-listed but now within 1% (Loupe "
                                 << loupe << ", odiff " << odiff << "); remove the entry");
    } else if (!close && allowed != nullptr) {
        MESSAGE(pair << " pass " << pass << ": Loupe " << loupe << " vs odiff " << odiff
                     << " (allowed: " << allowed->reason << ")");
    } else {
        CHECK_MESSAGE(close, pair << " pass " << pass << ": Loupe counts " << loupe
                                  << " differing pixels, odiff " << odiff
                                  << " (more than 1% apart and not in allow_list.hpp)");
    }
}

}  // namespace

TEST_CASE("corpus: Loupe agrees with odiff run as Argos runs it") {
    const fs::path dir = env_or("LOUPE_CORPUS_DIR", LOUPE_DEFAULT_CORPUS_DIR);
    if (!fs::is_directory(dir)) {
        MESSAGE("skipped: no corpus at "
                << dir.string() << " (render it with make-corpus.sh, see bench/README.md)");
        return;
    }
    const std::string odiff = env_or("LOUPE_ODIFF", LOUPE_DEFAULT_ODIFF);
    REQUIRE_MESSAGE(fs::exists(odiff), "odiff not found at "
                                           << odiff
                                           << " (run `npm ci` in bench/ or set LOUPE_ODIFF)");
    const std::vector<CorpusPair> pairs = list_pairs(dir);
    REQUIRE_MESSAGE(!pairs.empty(), "no NAME.base.png/NAME.head.png pairs in " << dir.string());

    const TempDir scratch;
    imagediff::Differ differ;
    imagediff::CompareOptions options;
    options.threshold = 0.5;
    std::ostringstream report;
    char line[256];
    std::snprintf(line, sizeof line, "%-30s %-14s %9s %9s %9s %9s  %-9s %-9s %-9s\n", "pair",
                  "expected", "loupe.15", "odiff.15", "loupe.0225", "odiff.0225", "loupe",
                  "argos-exact", "argos-2dp");
    report << line;

    for (const CorpusPair& pair : pairs) {
        INFO("pair ", pair.name);
        try {
            const OdiffInputs inputs = odiff_inputs(pair, scratch.path());
            const fs::path mask1 = scratch.path() / "odiff-pass1.png";
            const fs::path mask2 = scratch.path() / "odiff-pass2.png";
            fs::remove(mask1);  // odiff may leave the file alone when the images match
            fs::remove(mask2);
            const OdiffResult odiff1 =
                run_odiff(odiff, inputs.base.string(), inputs.head.string(), mask1.string(), 0.15);
            const OdiffResult odiff2 = run_odiff(odiff, inputs.base.string(), inputs.head.string(),
                                                 mask2.string(), 0.0225);
            const imagediff::DiffResult loupe =
                differ.diff_files(pair.base.string(), pair.head.string(), options);

            const uint64_t pixels = uint64_t{inputs.width} * inputs.height;
            CHECK(loupe.width == inputs.width);
            CHECK(loupe.height == inputs.height);
            const bool loupe_changed = loupe.verdict == imagediff::Verdict::changed;
            const bool argos_exact = argos_changed({odiff1.count, odiff2.count}, pixels);
            CHECK_MESSAGE(loupe_changed == argos_exact,
                          pair.name << ": Loupe says " << verdict_name(loupe_changed)
                                    << ", Argos's rule on odiff's exact counts (" << odiff1.count
                                    << ", " << odiff2.count << " of " << pixels << " px) says "
                                    << verdict_name(argos_exact));
            check_count(pair.name, 1, loupe.base_pass.differing_pixels, odiff1.count);
            check_count(pair.name, 2, loupe.color_pass.differing_pixels, odiff2.count);
            if (loupe.chosen_pass != 0) {
                const fs::path& odiff_mask = loupe.chosen_pass == 1 ? mask1 : mask2;
                CHECK_MESSAGE(same_pixels(loupe.mask_png, odiff_mask),
                              pair.name << ": Loupe's mask (pass " << loupe.chosen_pass
                                        << ") differs from odiff's mask for that pass");
            }

            std::snprintf(line, sizeof line,
                          "%-30s %-14s %9llu %9llu %9llu %9llu  %-9s %-9s %-9s%s\n",
                          pair.name.c_str(), pair.expected.c_str(),
                          static_cast<unsigned long long>(loupe.base_pass.differing_pixels),
                          static_cast<unsigned long long>(odiff1.count),
                          static_cast<unsigned long long>(loupe.color_pass.differing_pixels),
                          static_cast<unsigned long long>(odiff2.count),
                          verdict_name(loupe_changed), verdict_name(argos_exact),
                          verdict_name(argos_changed_rounded(odiff1, odiff2, pixels)),
                          inputs.padded ? "  (padded)" : "");
            report << line;
        } catch (const std::exception& error) {
            FAIL_CHECK(pair.name << ": " << error.what());
        }
    }
    MESSAGE("corpus " << dir.string() << ", " << pairs.size() << " pairs:\n" << report.str());
}

TEST_CASE("corpus allow-list: one entry per pair and pass, each with a reason") {
    std::set<std::pair<std::string_view, int>> seen;
    for (const AllowedDifference& entry : kAllowedDifferences) {
        INFO("allow-list entry ", std::string(entry.pair), " pass ", entry.pass);
        CHECK(!entry.pair.empty());
        CHECK((entry.pass == 1 || entry.pass == 2));
        CHECK(entry.reason.size() >= 20);
        CHECK(seen.insert({entry.pair, entry.pass}).second);
    }
}
