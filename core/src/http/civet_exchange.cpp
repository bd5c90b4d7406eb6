#include "http/civet_exchange.hpp"

#include <civetweb.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <vector>

#include "loupe/http/http_error.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

constexpr std::size_t io_chunk = 64 * 1024;
/// Unread request bodies up to this size are read and dropped before answering. Clients write
/// the whole body before reading the answer, so closing on unread bytes (the kernel then
/// resets the connection) often loses the answer; past this size we close anyway.
constexpr std::size_t max_discarded_body = 4 * 1024 * 1024;

/// True when a comma-separated header value lists `token` (case-insensitively).
bool has_token(std::string_view value, std::string_view token) {
    while (!value.empty()) {
        const std::size_t comma = value.find(',');
        const std::string_view item = trim(value.substr(0, comma), http_whitespace);
        if (equals_ignoring_case(item, token)) {
            return true;
        }
        if (comma == std::string_view::npos) {
            break;
        }
        value.remove_prefix(comma + 1);
    }
    return false;
}

/// Headers the exchange writes itself; a handler's copy is dropped.
bool is_framing_header(std::string_view name) {
    return equals_ignoring_case(name, "Content-Length") ||
           equals_ignoring_case(name, "Transfer-Encoding") ||
           equals_ignoring_case(name, "Connection") || equals_ignoring_case(name, "Date");
}

/// CR and LF in a header would let a value start a new header or the body.
std::string header_text(std::string_view text) {
    std::string clean(text);
    for (char& c : clean) {
        if (c == '\r' || c == '\n') {
            c = ' ';
        }
    }
    return clean;
}

bool status_has_body(int status) {
    return status >= 200 && status != 204 && status != 304;
}

std::string http_date() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &utc);
    return buffer;
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

bool write_all(mg_connection* connection, const char* data, std::size_t size) {
    while (size > 0) {
        const std::size_t chunk = std::min(size, io_chunk);
        if (mg_write(connection, data, chunk) <= 0) {
            return false;  // the client went away; nothing more to do
        }
        data += chunk;
        size -= chunk;
    }
    return true;
}

/// Reads exactly `size` bytes; false when the file ends or fails first.
bool read_fully(int fd, char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t count = ::read(fd, data, size);
        if (count <= 0) {
            return false;
        }
        data += count;
        size -= static_cast<std::size_t>(count);
    }
    return true;
}

std::string response_head(mg_connection* connection, const Response& response, bool keep_alive,
                          std::size_t length) {
    std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " +
                       mg_get_response_code_text(connection, response.status) + "\r\n";
    head += "Date: " + http_date() + "\r\n";
    head += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    for (const auto& [name, value] : response.headers) {
        if (!is_framing_header(name)) {
            head += header_text(name) + ": " + header_text(value) + "\r\n";
        }
    }
    if (status_has_body(response.status)) {
        head += "Content-Length: " + std::to_string(length) + "\r\n";
    }
    head += "\r\n";
    return head;
}

}  // namespace

ConnectionEndpoints endpoints_of(const mg_request_info& info) {
    return {normalized_address(info.remote_addr), info.remote_port, info.server_port};
}

void send_and_close(mg_connection* connection, const Response& response) {
    mg_disable_connection_keep_alive(connection);
    const std::string head = response_head(connection, response, false, response.body.size());
    if (write_all(connection, head.data(), head.size()) && status_has_body(response.status)) {
        write_all(connection, response.body.data(), response.body.size());
    }
}

CivetExchange::CivetExchange(mg_connection* connection, ConnectionGuard* guard)
    : connection_(connection), info_(mg_get_request_info(connection)), guard_(guard) {
    const char* transfer_encoding = mg_get_header(connection_, "Transfer-Encoding");
    // civetweb refuses any other transfer coding with a 400 before we get here.
    chunked_ = transfer_encoding != nullptr && !equals_ignoring_case(transfer_encoding, "identity");
    if (!chunked_ && info_->content_length > 0) {
        declared_length_ = static_cast<std::size_t>(info_->content_length);
    }
    const char* expect = mg_get_header(connection_, "Expect");
    expects_continue_ = expect != nullptr && equals_ignoring_case(expect, "100-continue");
}

std::string_view CivetExchange::method() const {
    return info_->request_method ? info_->request_method : "";
}

std::string_view CivetExchange::path() const {
    if (info_->local_uri) {
        return info_->local_uri;
    }
    return info_->request_uri ? info_->request_uri : "";
}

std::string_view CivetExchange::query_string() const {
    return info_->query_string ? info_->query_string : "";
}

std::optional<std::string> CivetExchange::header(std::string_view name) const {
    const char* value = mg_get_header(connection_, std::string(name).c_str());
    if (value == nullptr) {
        return std::nullopt;
    }
    return std::string(value);
}

std::string CivetExchange::remote_address() const {
    return info_->remote_addr;
}

RequestHead CivetExchange::head() const {
    RequestHead head;
    head.http_version = info_->http_version ? info_->http_version : "";
    const char* target = info_->request_uri;
    head.target_length = target ? std::strlen(target) : 0;
    if (info_->query_string) {
        head.target_length += 1 + std::strlen(info_->query_string);
    }
    const int count = std::clamp(info_->num_headers, 0, MG_MAX_HEADERS);
    head.fields.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const mg_header& field = info_->http_headers[i];
        head.fields.emplace_back(field.name ? field.name : "", field.value ? field.value : "");
        head.field_bytes += head.fields.back().first.size() + head.fields.back().second.size();
    }
    // civetweb keeps MG_MAX_HEADERS fields and silently drops any further ones.
    head.fields_truncated = info_->num_headers >= MG_MAX_HEADERS;
    return head;
}

std::optional<std::size_t> CivetExchange::content_length() const {
    if (chunked_) {
        return std::nullopt;
    }
    return declared_length_;
}

bool CivetExchange::body_complete() const {
    return at_end_ || (!chunked_ && consumed_ >= declared_length_);
}

void CivetExchange::send_continue_if_expected() {
    if (expects_continue_) {
        expects_continue_ = false;
        static constexpr char interim[] = "HTTP/1.1 100 Continue\r\n\r\n";
        mg_write(connection_, interim, sizeof interim - 1);
    }
}

std::size_t CivetExchange::read(char* buffer, std::size_t size) {
    if (size == 0 || body_complete()) {
        return 0;
    }
    send_continue_if_expected();
    int count = 0;
    {
        const ConnectionGuard::BodyRead deadline(guard_, endpoints_of(*info_));
        count = mg_read(connection_, buffer, std::min(size, io_chunk));
    }
    if (guard_ != nullptr &&
        guard_->verdict(endpoints_of(*info_)) == ConnectionGuard::Verdict::timed_out) {
        at_end_ = true;
        broken_ = true;
        throw HttpError(408, "Request Timeout: the body stopped arriving");
    }
    if (count < 0) {
        at_end_ = true;
        broken_ = true;
        throw HttpError::bad_request("request aborted");  // bad chunk framing, read error
    }
    if (count == 0) {
        at_end_ = true;  // end of a chunked body, or the client stopped sending
        broken_ = !chunked_ && consumed_ < declared_length_;
        return 0;
    }
    consumed_ += static_cast<std::size_t>(count);
    return static_cast<std::size_t>(count);
}

void CivetExchange::abandon_body() {
    at_end_ = true;
    broken_ = true;
    expects_continue_ = false;
}

bool CivetExchange::discard_small_body() {
    if (expects_continue_) {
        return false;  // the client has not sent the body; asking for it just to drop it is waste
    }
    if (!chunked_ && declared_length_ - consumed_ > max_discarded_body) {
        return false;
    }
    char buffer[16 * 1024];
    std::size_t discarded = 0;
    try {
        while (!body_complete() && discarded <= max_discarded_body) {
            discarded += read(buffer, sizeof buffer);
        }
    } catch (const HttpError&) {
        return false;  // the body is broken: nothing more can be read from this connection
    }
    return body_complete() && !broken_;
}

bool CivetExchange::client_allows_keep_alive() const {
    if (const char* connection = mg_get_header(connection_, "Connection")) {
        return has_token(connection, "keep-alive");
    }
    return info_->http_version != nullptr && std::strcmp(info_->http_version, "1.1") == 0;
}

void CivetExchange::send(const Response& response, bool headers_only, bool close_connection) {
    std::optional<FileDescriptor> file;
    std::size_t length = response.body.size();
    if (!response.file_path.empty()) {
        file.emplace(::open(response.file_path.c_str(), O_RDONLY | O_CLOEXEC));
        struct stat status {};
        if (file->get() < 0 || ::fstat(file->get(), &status) != 0 || !S_ISREG(status.st_mode)) {
            throw std::runtime_error("cannot send file " + response.file_path + ": " +
                                     (file->get() < 0 ? std::strerror(errno) : "not a file"));
        }
        const auto size = static_cast<uint64_t>(status.st_size);
        const uint64_t offset = std::min(response.file_offset, size);
        length = static_cast<std::size_t>(
            std::min(size - offset, response.file_length.value_or(size - offset)));
        if (offset > 0 && ::lseek(file->get(), static_cast<off_t>(offset), SEEK_SET) < 0) {
            throw std::runtime_error("cannot seek in file " + response.file_path + ": " +
                                     std::strerror(errno));
        }
    }

    if (broken_ || (!body_complete() && !discard_small_body())) {
        close_connection = true;
    }
    const bool keep_alive = !close_connection && client_allows_keep_alive();
    if (!keep_alive) {
        mg_disable_connection_keep_alive(connection_);
    }

    const bool has_body = status_has_body(response.status);
    std::string head = response_head(connection_, response, keep_alive, length);
    if (file && !headers_only && has_body && length <= io_chunk) {
        // A small file goes out with the head in one write (one syscall, one TCP segment).
        const std::size_t head_size = head.size();
        head.resize(head_size + length);
        if (!read_fully(file->get(), head.data() + head_size, length)) {
            head.resize(head_size);  // the file shrank under us: send what the head promised
            mg_disable_connection_keep_alive(connection_);
            write_all(connection_, head.data(), head.size());
            return;
        }
        write_all(connection_, head.data(), head.size());
        return;
    }
    if (!write_all(connection_, head.data(), head.size()) || headers_only || !has_body) {
        return;
    }
    if (!file) {
        write_all(connection_, response.body.data(), response.body.size());
        return;
    }
    std::vector<char> buffer(io_chunk);
    std::size_t remaining = length;
    while (remaining > 0) {
        const ssize_t count = ::read(file->get(), buffer.data(), std::min(remaining, io_chunk));
        if (count <= 0) {
            // The file shrank or failed under us: the promised length cannot be met, so the
            // connection must end for the client to notice.
            mg_disable_connection_keep_alive(connection_);
            return;
        }
        if (!write_all(connection_, buffer.data(), static_cast<std::size_t>(count))) {
            return;
        }
        remaining -= static_cast<std::size_t>(count);
    }
}

}  // namespace loupe
