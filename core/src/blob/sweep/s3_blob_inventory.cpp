// The bucket's inventory: objects under <prefix>blobs/ (listed with ListObjectsV2), the
// quarantine under <prefix>quarantine/ (S3 has no rename: a server-side copy, then a delete),
// and abandoned client uploads under <prefix>incoming/.
#include <Poco/AutoPtr.h>
#include <Poco/DOM/DOMParser.h>
#include <Poco/DOM/Document.h>
#include <Poco/DOM/Element.h>
#include <Poco/DOM/NodeList.h>
#include <Poco/DateTime.h>
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>

#include <stdexcept>

#include "blob/local_blob_store.hpp"
#include "blob/s3/s3_blob_store.hpp"
#include "blob/s3/sigv4.hpp"
#include "blob/sweep/blob_inventory.hpp"

namespace loupe {
namespace {

struct ListedObject {
    std::string name;
    uint64_t size = 0;
    int64_t modified_ms = 0;
};

std::string child_text(Poco::XML::Element* parent, const std::string& name) {
    auto* child = parent->getChildElement(name);
    return child == nullptr ? "" : child->innerText();
}

int64_t parse_s3_time(const std::string& text) {
    int zone = 0;
    const Poco::DateTime time = Poco::DateTimeParser::parse(text, zone);
    return time.timestamp().epochMicroseconds() / 1000 - static_cast<int64_t>(zone) * 1000;
}

void check(const S3Response& response, const std::string& what, const std::string& name,
           std::initializer_list<int> accepted) {
    for (int status : accepted) {
        if (response.status == status && response.error_code().empty()) {
            return;
        }
    }
    throw S3Error("S3 " + what + " " + name + ": HTTP " + std::to_string(response.status) + " " +
                      response.error_code(),
                  response.status, response.error_code());
}

class S3BlobInventory final : public BlobInventory {
public:
    explicit S3BlobInventory(S3BlobStore& store)
        : store_(store), prefix_(store.client().settings().prefix) {}

    void for_each_blob(const std::function<void(const StoredBlob&)>& visit) override {
        const auto folder = prefix_ + "blobs/";
        list(folder, [&](const ListedObject& object) {
            const auto key = object.name.substr(folder.size());
            if (is_blob_key(key) && normalize_blob_key(key) == key) {
                visit(StoredBlob{key, object.size, object.modified_ms});
            }
        });
    }

    bool quarantine(const std::string& key, int64_t now_ms) override {
        const auto source = store_.blob_name(key);
        const auto copied = copy(source, quarantine_folder() + quarantine_name(key, now_ms));
        if (!copied) {
            return false;
        }
        check(store_.client().send("DELETE", source), "DELETE", source, {200, 204, 404});
        return true;
    }

    std::vector<QuarantinedBlob> quarantined() override {
        std::vector<QuarantinedBlob> entries;
        const auto folder = quarantine_folder();
        list(folder, [&](const ListedObject& object) {
            QuarantinedBlob entry;
            entry.name = object.name.substr(folder.size());
            entry.size = object.size;
            if (parse_quarantine_name(entry.name, entry.key, entry.since_ms)) {
                entries.push_back(std::move(entry));
            }
        });
        return entries;
    }

    void restore(const QuarantinedBlob& entry) override {
        const auto source = quarantine_folder() + entry.name;
        if (!store_.stat(entry.key)) {
            if (!copy(source, store_.blob_name(entry.key))) {
                return;  // another sweep dealt with it
            }
        }
        check(store_.client().send("DELETE", source), "DELETE", source, {200, 204, 404});
    }

    void purge(const QuarantinedBlob& entry) override {
        const auto name = quarantine_folder() + entry.name;
        check(store_.client().send("DELETE", name), "DELETE", name, {200, 204, 404});
    }

    int64_t remove_stale_uploads(int64_t cutoff_ms, bool dry_run) override {
        int64_t removed = 0;
        list(prefix_ + "incoming/", [&](const ListedObject& object) {
            if (object.modified_ms >= cutoff_ms) {
                return;
            }
            if (!dry_run) {
                check(store_.client().send("DELETE", object.name), "DELETE", object.name,
                      {200, 204, 404});
            }
            ++removed;
        });
        return removed;
    }

private:
    std::string quarantine_folder() const { return prefix_ + "quarantine/"; }

    /// Server-side copy; false when the source does not exist.
    bool copy(const std::string& source, const std::string& target) {
        const auto& settings = store_.client().settings();
        const auto response =
            store_.client().send("PUT", target, {},
                                 {{"x-amz-copy-source", "/" + settings.bucket + "/" +
                                                            sigv4::uri_encode(source, false)}});
        if (response.status == 404) {
            return false;
        }
        // A copy may fail after its 200 status line, with an <Error> body.
        check(response, "copy to", target, {200});
        return true;
    }

    /// Every object whose name starts with `folder`, page by page (ListObjectsV2).
    void list(const std::string& folder, const std::function<void(const ListedObject&)>& visit) {
        std::string token;
        while (true) {
            S3Pairs query{{"list-type", "2"}, {"prefix", folder}};
            if (!token.empty()) {
                query.emplace_back("continuation-token", token);
            }
            const auto response = store_.client().send("GET", "", query);
            check(response, "list", folder, {200});
            Poco::XML::DOMParser parser;
            Poco::AutoPtr<Poco::XML::Document> document = parser.parseString(response.body);
            auto* root = document->documentElement();
            if (root == nullptr) {
                throw std::runtime_error("S3 list " + folder + ": not a ListBucketResult");
            }
            Poco::AutoPtr<Poco::XML::NodeList> contents = root->getElementsByTagName("Contents");
            for (unsigned long i = 0; i < contents->length(); ++i) {
                auto* item = static_cast<Poco::XML::Element*>(contents->item(i));
                ListedObject object;
                object.name = child_text(item, "Key");
                object.size = std::stoull("0" + child_text(item, "Size"));
                object.modified_ms = parse_s3_time(child_text(item, "LastModified"));
                if (object.name.starts_with(folder)) {
                    visit(object);
                }
            }
            token = child_text(root, "NextContinuationToken");
            if (child_text(root, "IsTruncated") != "true" || token.empty()) {
                return;
            }
        }
    }

    S3BlobStore& store_;
    std::string prefix_;
};

}  // namespace

std::unique_ptr<BlobInventory> s3_blob_inventory(S3BlobStore& store) {
    return std::make_unique<S3BlobInventory>(store);
}

}  // namespace loupe
