#include "diff_tool/diff_tool.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "loupe/imagediff/imagediff.hpp"

namespace loupe::builds {
namespace {

struct DiffArguments {
    std::string base;
    std::string head;
    double threshold = 0.5;
    std::string out;
    bool json = false;
};

DiffArguments parse_arguments(const std::vector<std::string>& args) {
    DiffArguments parsed;
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& arg = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) {
                throw std::invalid_argument(arg + " expects a value");
            }
            return args[++i];
        };
        if (arg == "--threshold") {
            parsed.threshold = std::stod(value());
            if (parsed.threshold < 0 || parsed.threshold > 1) {
                throw std::invalid_argument("--threshold must be between 0 and 1");
            }
        } else if (arg == "--out") {
            parsed.out = value();
        } else if (arg == "--json") {
            parsed.json = true;
        } else if (arg.rfind("--", 0) == 0) {
            throw std::invalid_argument("unknown option " + arg);
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.size() != 2) {
        throw std::invalid_argument("expected BASE and HEAD image paths");
    }
    parsed.base = positional[0];
    parsed.head = positional[1];
    return parsed;
}

nlohmann::json pass_json(const imagediff::PassResult& pass) {
    return {{"threshold", pass.threshold},
            {"differingPixels", pass.differing_pixels},
            {"fraction", pass.fraction},
            {"adjustedScore", pass.adjusted}};
}

}  // namespace

int run_diff(const std::vector<std::string>& args) {
    DiffArguments parsed;
    try {
        parsed = parse_arguments(args);
    } catch (const std::exception& error) {
        std::cerr << "loupe diff: " << error.what()
                  << "\nusage: loupe diff BASE HEAD [--threshold 0.5] [--out mask.png] [--json]\n";
        return 2;
    }
    imagediff::DiffResult result;
    try {
        imagediff::Differ differ;
        imagediff::CompareOptions options;
        options.threshold = parsed.threshold;
        options.want_mask = !parsed.out.empty();
        result = differ.diff_files(parsed.base, parsed.head, options);
    } catch (const std::exception& error) {
        std::cerr << "loupe diff: " << error.what() << "\n";
        return 2;
    }
    const bool changed = result.verdict == imagediff::Verdict::changed;
    if (!parsed.out.empty() && !result.mask_png.empty()) {
        std::ofstream out(parsed.out, std::ios::binary);
        out.write(reinterpret_cast<const char*>(result.mask_png.data()),
                  static_cast<std::streamsize>(result.mask_png.size()));
        if (!out) {
            std::cerr << "loupe diff: cannot write " << parsed.out << "\n";
            return 2;
        }
    }
    if (parsed.json) {
        nlohmann::json report = {
            {"verdict", changed ? "changed" : "unchanged"},
            {"score", result.score},
            {"chosenPass", result.chosen_pass},
            {"width", result.width},
            {"height", result.height},
            {"base", {{"width", result.base_width}, {"height", result.base_height}}},
            {"head", {{"width", result.head_width}, {"height", result.head_height}}},
            {"basePass", pass_json(result.base_pass)},
            {"colorPass", pass_json(result.color_pass)},
            {"timingsMs",
             {{"decode", result.decode_ms},
              {"compare", result.compare_ms},
              {"encode", result.encode_ms}}}};
        if (!parsed.out.empty()) {
            report["mask"] =
                result.mask_png.empty() ? nlohmann::json() : nlohmann::json(parsed.out);
            report["fingerprint"] =
                result.fingerprint.empty() ? nlohmann::json() : nlohmann::json(result.fingerprint);
        }
        std::cout << report.dump(2) << "\n";
    } else {
        std::printf(
            "%s score=%.6f canvas=%ux%u base_pass=%llu color_pass=%llu "
            "decode_ms=%.2f compare_ms=%.2f\n",
            changed ? "changed" : "unchanged", result.score, result.width, result.height,
            static_cast<unsigned long long>(result.base_pass.differing_pixels),
            static_cast<unsigned long long>(result.color_pass.differing_pixels), result.decode_ms,
            result.compare_ms);
    }
    return changed ? 1 : 0;
}

}  // namespace loupe::builds
