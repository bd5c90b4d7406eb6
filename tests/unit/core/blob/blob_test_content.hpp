#pragma once
// Content for the blob tests: keys, incompressible bytes, folder listings and upload forms.

#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "loupe/crypto/digest.hpp"

namespace loupe::blob_test {

inline std::string sha256_hex(const std::string& bytes) {
    return crypto::sha256_hex(bytes);
}

/// Deterministic bytes that do not compress and contain CR, LF and '-' (multipart-hostile).
inline std::string random_bytes(std::size_t size, unsigned seed = 1) {
    std::mt19937 generator(seed);
    std::string bytes(size, '\0');
    for (char& c : bytes) {
        c = static_cast<char>(generator() & 0xff);
    }
    return bytes;
}

/// Files currently in a folder (not recursive).
inline std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        names.push_back(entry.path().filename().string());
    }
    return names;
}

/// A multipart/form-data body: `fields` in order, then a part named "file".
struct UploadForm {
    std::string boundary = "----loupe-test-boundary-7MA4YWxkTrZu0gW";
    std::vector<std::pair<std::string, std::string>> fields;
    std::string file;
    std::string file_content_type;  ///< empty: the file part declares none
    std::vector<std::pair<std::string, std::string>> fields_after_file;

    std::string content_type() const { return "multipart/form-data; boundary=" + boundary; }

    std::string body() const {
        std::string text;
        const auto add_field = [&](const std::string& name, const std::string& value) {
            text += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name +
                    "\"\r\n\r\n" + value + "\r\n";
        };
        for (const auto& [name, value] : fields) {
            add_field(name, value);
        }
        text += "--" + boundary +
                "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"shot.png\"\r\n";
        if (!file_content_type.empty()) {
            text += "Content-Type: " + file_content_type + "\r\n";
        }
        text += "\r\n" + file + "\r\n";
        for (const auto& [name, value] : fields_after_file) {
            add_field(name, value);
        }
        return text + "--" + boundary + "--\r\n";
    }
};

}  // namespace loupe::blob_test
