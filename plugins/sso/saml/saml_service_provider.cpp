#include "saml/saml_service_provider.hpp"

// libxml2 (under lasso) includes ICU's converter header inside its extern "C" block; included
// here first, ICU's C++ templates keep their linkage.
// clang-format off
#include <unicode/ucnv.h>
// clang-format on

#include <lasso/debug.h>
#include <lasso/lasso.h>
#include <lasso/xml/saml-2.0/saml2_assertion.h>
#include <lasso/xml/saml-2.0/saml2_conditions.h>
#include <lasso/xml/saml-2.0/saml2_name_id.h>
#include <lasso/xml/saml-2.0/saml2_strings.h>
#include <lasso/xml/saml-2.0/saml2_subject_confirmation_data.h>
#include <lasso/xml/saml-2.0/samlp2_authn_request.h>
#include <lasso/xml/saml-2.0/samlp2_name_id_policy.h>
#include <lasso/xml/saml-2.0/samlp2_request_abstract.h>
#include <lasso/xml/saml-2.0/samlp2_status.h>
#include <lasso/xml/saml-2.0/samlp2_status_code.h>
#include <lasso/xml/saml-2.0/samlp2_status_response.h>
#include <libxml/tree.h>

#include <ctime>
#include <iomanip>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

#include "loupe/text/html.hpp"

namespace loupe::sso {
namespace {

/// Clock skew allowed on the assertion's NotBefore/NotOnOrAfter, seconds.
constexpr unsigned int skew_s = 60;
/// The largest SAMLResponse read (base64); IdPs send a few to tens of kilobytes.
constexpr std::size_t max_response_bytes = std::size_t{512} * 1024;

struct GObjectUnref {
    void operator()(void* object) const { g_object_unref(object); }
};
using ServerPtr = std::unique_ptr<LassoServer, GObjectUnref>;
using LoginPtr = std::unique_ptr<LassoLogin, GObjectUnref>;

/// The PEM body of a certificate, as metadata carries it (base64 without the armour).
std::string certificate_body(const std::string& pem) {
    std::string body;
    bool inside = false;
    std::size_t start = 0;
    while (start < pem.size()) {
        auto end = pem.find('\n', start);
        if (end == std::string::npos) {
            end = pem.size();
        }
        std::string line = pem.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.starts_with("-----BEGIN CERTIFICATE")) {
            inside = true;
        } else if (line.starts_with("-----END CERTIFICATE")) {
            break;
        } else if (inside) {
            body += line;
        }
        start = end + 1;
    }
    return body;
}

/// The entityID of an EntityDescriptor document.
std::string entity_id_of(const std::string& metadata) {
    static const std::regex entity_id(
        "<(?:[A-Za-z0-9_]+:)?EntityDescriptor\\b[^>]*\\bentityID\\s*=\\s*\"([^\"]+)\"");
    std::smatch match;
    if (!std::regex_search(metadata, match, entity_id)) {
        throw std::runtime_error("the IdP metadata has no EntityDescriptor entityID");
    }
    return match[1].str();
}

bool is_saml_element(const xmlNode* node, const char* name) {
    static constexpr const char* assertion_ns = "urn:oasis:names:tc:SAML:2.0:assertion";
    return node->type == XML_ELEMENT_NODE && node->ns != nullptr && node->ns->href != nullptr &&
           xmlStrEqual(node->ns->href, BAD_CAST assertion_ns) != 0 &&
           xmlStrEqual(node->name, BAD_CAST name) != 0;
}

/// Every value of every attribute of the assertion, by attribute name, read from the XML as
/// signed: a value's whole text content (comments and CDATA sections inside it, which the
/// signature's canonical form ignores or flattens, neither cut nor hide part of it).
std::map<std::string, std::vector<std::string>> attributes_of(LassoSaml2Assertion* assertion) {
    std::map<std::string, std::vector<std::string>> attributes;
    const xmlNode* root = lasso_node_get_original_xmlnode(LASSO_NODE(assertion));
    if (root == nullptr) {
        throw SamlRefused("The SAML assertion cannot be read");
    }
    for (const xmlNode* statement = root->children; statement != nullptr;
         statement = statement->next) {
        if (!is_saml_element(statement, "AttributeStatement")) {
            continue;
        }
        for (const xmlNode* attribute = statement->children; attribute != nullptr;
             attribute = attribute->next) {
            if (!is_saml_element(attribute, "Attribute")) {
                continue;
            }
            xmlChar* name = xmlGetProp(attribute, BAD_CAST "Name");
            if (name == nullptr) {
                continue;
            }
            auto& values = attributes[reinterpret_cast<const char*>(name)];
            xmlFree(name);
            for (const xmlNode* value = attribute->children; value != nullptr;
                 value = value->next) {
                if (!is_saml_element(value, "AttributeValue")) {
                    continue;
                }
                xmlChar* content = xmlNodeGetContent(value);
                if (content != nullptr) {
                    std::string text(reinterpret_cast<const char*>(content));
                    xmlFree(content);
                    if (!text.empty()) {
                        values.push_back(std::move(text));
                    }
                }
            }
        }
    }
    return attributes;
}

std::string first_of(const std::map<std::string, std::vector<std::string>>& attributes,
                     const std::string& name) {
    const auto found = attributes.find(name);
    return found == attributes.end() || found->second.empty() ? "" : found->second.front();
}

/// An xsd:dateTime in UTC ("2026-11-29T17:24:36Z", fractions allowed) in epoch seconds.
std::optional<int64_t> utc_seconds(const char* text) {
    if (text == nullptr) {
        return std::nullopt;
    }
    std::tm parts{};
    std::istringstream in(text);
    in >> std::get_time(&parts, "%Y-%m-%dT%H:%M:%S");
    if (in.fail()) {
        return std::nullopt;
    }
    std::string rest;
    in >> rest;
    if (!rest.ends_with('Z')) {
        return std::nullopt;  // SAML times are UTC, written with Z
    }
    return static_cast<int64_t>(timegm(&parts));
}

[[noreturn]] void refuse(const std::string& message) {
    throw SamlRefused(message);
}

}  // namespace

void init_saml_library() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (lasso_init() != 0) {
            throw std::runtime_error("liblasso could not be initialised");
        }
        // LASSO_FLAG=no-verify-signature in the environment would turn every check off.
        if (lasso_flag_verify_signature == FALSE) {
            throw std::runtime_error(
                "liblasso's signature checks are off (LASSO_FLAG): SAML sign-in refused");
        }
    });
}

SamlServiceProvider::SamlServiceProvider(SamlProvider provider,
                                         std::function<std::string()> public_url)
    : provider_(std::move(provider)),
      public_url_(std::move(public_url)),
      idp_entity_id_(entity_id_of(provider_.idp_metadata)) {
    init_saml_library();
    const ServerPtr probe(lasso_server_new_from_buffers(
        metadata_xml().c_str(), provider_.sp_key.c_str(), nullptr, provider_.sp_cert.c_str()));
    if (!probe) {
        throw std::runtime_error("auth.saml." + provider_.id +
                                 ": the SP key or certificate cannot be read");
    }
    if (lasso_server_add_provider_from_buffer(probe.get(), LASSO_PROVIDER_ROLE_IDP,
                                              provider_.idp_metadata.c_str(), nullptr,
                                              nullptr) != 0) {
        throw std::runtime_error("auth.saml." + provider_.id +
                                 ".idp_metadata_file: not an IdP metadata document lasso reads");
    }
}

std::string SamlServiceProvider::entity_id() const {
    return public_url_() + "/_loupe/sso/saml/" + provider_.id + "/metadata";
}

std::string SamlServiceProvider::acs_url() const {
    return public_url_() + "/_loupe/sso/saml/" + provider_.id + "/acs";
}

std::string SamlServiceProvider::metadata_xml() const {
    const std::string cert = certificate_body(provider_.sp_cert);
    const std::string key_descriptor =
        "<md:KeyDescriptor use=\"signing\"><ds:KeyInfo "
        "xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><ds:X509Data><ds:X509Certificate>" +
        cert + "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>";
    return "<?xml version=\"1.0\"?>\n"
           "<md:EntityDescriptor xmlns:md=\"urn:oasis:names:tc:SAML:2.0:metadata\" entityID=\"" +
           html_escape(entity_id()) +
           "\">"
           "<md:SPSSODescriptor AuthnRequestsSigned=\"true\" WantAssertionsSigned=\"true\" "
           "protocolSupportEnumeration=\"urn:oasis:names:tc:SAML:2.0:protocol\">" +
           key_descriptor +
           "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
           "</md:NameIDFormat>"
           "<md:AssertionConsumerService index=\"0\" isDefault=\"true\" "
           "Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\" Location=\"" +
           html_escape(acs_url()) +
           "\"/>"
           "</md:SPSSODescriptor></md:EntityDescriptor>\n";
}

namespace {

ServerPtr new_server(const SamlServiceProvider& sp) {
    const auto& provider = sp.provider();
    ServerPtr server(lasso_server_new_from_buffers(
        sp.metadata_xml().c_str(), provider.sp_key.c_str(), nullptr, provider.sp_cert.c_str()));
    if (server) {
        server->signature_method = LASSO_SIGNATURE_METHOD_RSA_SHA256;  // lasso's default: SHA-1
    }
    if (!server || lasso_server_add_provider_from_buffer(server.get(), LASSO_PROVIDER_ROLE_IDP,
                                                         provider.idp_metadata.c_str(), nullptr,
                                                         nullptr) != 0) {
        throw std::runtime_error("the SAML provider " + provider.id + " cannot be loaded");
    }
    return server;
}

}  // namespace

SamlServiceProvider::AuthnRequest SamlServiceProvider::authn_request(
    const std::string& relay_state) const {
    const auto server = new_server(*this);
    const LoginPtr login(lasso_login_new(server.get()));
    auto* profile = LASSO_PROFILE(login.get());
    if (const int rc = lasso_login_init_authn_request(
            login.get(), const_cast<char*>(idp_entity_id_.c_str()), LASSO_HTTP_METHOD_REDIRECT);
        rc != 0) {
        throw std::runtime_error(std::string("SAML AuthnRequest: ") + lasso_strerror(rc));
    }
    auto* request = LASSO_SAMLP2_AUTHN_REQUEST(profile->request);
    if (request->NameIDPolicy == nullptr) {
        request->NameIDPolicy = LASSO_SAMLP2_NAME_ID_POLICY(lasso_samlp2_name_id_policy_new());
    }
    g_free(request->NameIDPolicy->Format);
    request->NameIDPolicy->Format = g_strdup(LASSO_SAML2_NAME_IDENTIFIER_FORMAT_EMAIL);
    request->NameIDPolicy->AllowCreate = TRUE;
    g_free(request->ProtocolBinding);
    request->ProtocolBinding = g_strdup(LASSO_SAML2_METADATA_BINDING_POST);
    g_free(request->AssertionConsumerServiceURL);
    request->AssertionConsumerServiceURL = g_strdup(acs_url().c_str());
    lasso_profile_set_signature_hint(profile, LASSO_PROFILE_SIGNATURE_HINT_FORCE);
    g_free(profile->msg_relayState);
    profile->msg_relayState = g_strdup(relay_state.c_str());
    if (const int rc = lasso_login_build_authn_request_msg(login.get()); rc != 0) {
        throw std::runtime_error(std::string("SAML AuthnRequest: ") + lasso_strerror(rc));
    }
    const char* id = LASSO_SAMLP2_REQUEST_ABSTRACT(request)->ID;
    if (profile->msg_url == nullptr || id == nullptr) {
        throw std::runtime_error("SAML AuthnRequest: lasso built no URL");
    }
    return {profile->msg_url, id};
}

Json SamlServiceProvider::verify_response(const std::string& saml_response,
                                          const std::string& request_id, int64_t now_s) const {
    if (saml_response.empty() || saml_response.size() > max_response_bytes) {
        refuse("The identity provider sent no SAML response");
    }
    ServerPtr server;
    try {
        server = new_server(*this);
    } catch (const std::runtime_error& error) {
        refuse(std::string("The SAML provider cannot be used: ") + error.what());
    }
    const LoginPtr login(lasso_login_new(server.get()));
    auto* profile = LASSO_PROFILE(login.get());
    lasso_profile_set_signature_verify_hint(profile, LASSO_PROFILE_SIGNATURE_VERIFY_HINT_FORCE);
    std::string message = saml_response;  // lasso takes a mutable C string
    if (const int rc = lasso_login_process_authn_response_msg(login.get(), message.data());
        rc != 0) {
        refuse(std::string("The SAML response was refused: ") + lasso_strerror(rc));
    }
    if (profile->signature_status != 0) {
        refuse("The SAML response is not signed by the identity provider");
    }
    if (profile->remote_providerID == nullptr || idp_entity_id_ != profile->remote_providerID) {
        refuse("The SAML response comes from another identity provider");
    }
    auto* response = LASSO_SAMLP2_STATUS_RESPONSE(profile->response);
    const char* status = response->Status != nullptr && response->Status->StatusCode != nullptr
                             ? response->Status->StatusCode->Value
                             : nullptr;
    if (status == nullptr || std::string(status) != LASSO_SAML2_STATUS_CODE_SUCCESS) {
        refuse("The identity provider did not sign you in");
    }
    LassoNode* node = lasso_login_get_assertion(login.get());
    if (node == nullptr || !LASSO_IS_SAML2_ASSERTION(node)) {
        if (node != nullptr) {
            g_object_unref(node);
        }
        refuse("The SAML response carries no assertion");
    }
    const std::unique_ptr<LassoSaml2Assertion, GObjectUnref> assertion(LASSO_SAML2_ASSERTION(node));
    const char* answered = lasso_saml2_assertion_get_in_response_to(assertion.get());
    const char* response_answered = response->InResponseTo;
    if (answered == nullptr || request_id != answered ||
        (response_answered != nullptr && request_id != response_answered)) {
        refuse("The SAML response answers another sign-in");
    }
    // lasso passes an assertion without Conditions or without an audience: both are required
    // here, so an assertion the IdP made for another of its services never signs anyone in.
    const std::string audience = entity_id();
    if (assertion->Conditions == nullptr || assertion->Conditions->NotOnOrAfter == nullptr ||
        lasso_saml2_assertion_validate_time_checks(
            assertion.get(), skew_s, static_cast<time_t>(now_s)) != LASSO_SAML2_ASSERTION_VALID) {
        refuse("The SAML assertion has expired or is not valid yet");
    }
    if (lasso_saml2_assertion_has_audience_restriction(assertion.get()) == FALSE ||
        lasso_saml2_assertion_validate_audience(assertion.get(), audience.c_str()) !=
            LASSO_SAML2_ASSERTION_VALID) {
        refuse("The SAML assertion is meant for another service");
    }
    // The bearer confirmation: delivered to this service's endpoint, before it expires.
    const std::string acs = acs_url();
    const auto* confirmation =
        lasso_saml2_assertion_get_subject_confirmation_data(assertion.get(), FALSE);
    const auto confirmation_ends =
        confirmation != nullptr ? utc_seconds(confirmation->NotOnOrAfter) : std::nullopt;
    if (confirmation == nullptr || confirmation->Recipient == nullptr ||
        acs != confirmation->Recipient || response->Destination == nullptr ||
        acs != response->Destination) {
        refuse("The SAML response is meant for another service");
    }
    if (!confirmation_ends || now_s - static_cast<int64_t>(skew_s) >= *confirmation_ends) {
        refuse("The SAML assertion has expired or is not valid yet");
    }
    std::string subject;
    std::string name_id_format;
    if (profile->nameIdentifier != nullptr && LASSO_IS_SAML2_NAME_ID(profile->nameIdentifier)) {
        auto* name_id = LASSO_SAML2_NAME_ID(profile->nameIdentifier);
        subject = name_id->content != nullptr ? name_id->content : "";
        name_id_format = name_id->Format != nullptr ? name_id->Format : "";
    }
    if (subject.empty()) {
        refuse("The SAML assertion names nobody");
    }
    const auto attributes = attributes_of(assertion.get());
    std::string email = first_of(attributes, provider_.email_attribute);
    if (email.empty() && name_id_format == LASSO_SAML2_NAME_IDENTIFIER_FORMAT_EMAIL) {
        email = subject;
    }
    Json groups = Json::array();
    if (const auto found = attributes.find(provider_.policy.roles_claim);
        found != attributes.end()) {
        for (const auto& group : found->second) {
            groups.push_back(group);
        }
    }
    return Json{{"sub", subject},
                {"email", email},
                {"email_verified", !email.empty()},
                {"name", first_of(attributes, provider_.name_attribute)},
                {provider_.policy.roles_claim, std::move(groups)}};
}

}  // namespace loupe::sso
