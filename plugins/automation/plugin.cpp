// The automation plugin: Argos's automation rules. A project's administrators define rules
// (events, conditions, actions) through the Argos API; when a build completes or is reviewed
// and a rule matches, its actions post to Slack, Microsoft Teams, Discord or a signed webhook
// through durable jobs, and the run history tells what fired and how each delivery went.
#include "loupe/plugin.hpp"

#include <memory>

#include "actions/action_delivery.hpp"
#include "automation_settings.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/crypto/sealed_box.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "routes/chat_target_routes.hpp"
#include "routes/rule_routes.hpp"
#include "rules/rule_trigger.hpp"
#include "store/automation_migrations.hpp"

namespace {

using namespace loupe;
using namespace loupe::automation;

// What install() makes, kept by the Host as long as the installation.
struct AutomationPlugin {
    AutomationSettings settings;
    std::unique_ptr<ChatTargets> targets;
    std::unique_ptr<ActionDelivery> delivery;
};

void install(Host& host) {
    describe_api(host.services(), embedded_api_description());
    auto& plugin = host.make<AutomationPlugin>();
    plugin.settings = read_automation_settings(host.config());
    add_automation_migrations(host.migrations());
    // The key the teams' chat secrets are sealed with: the operator's file, else one made in
    // the data folder (a single instance's; several instances must share a configured file).
    const std::string key_file =
        plugin.settings.secrets_key_file.empty()
            ? host.global_config().get_string("data.dir", "./data") + "/automation-secrets.key"
            : plugin.settings.secrets_key_file;
    plugin.targets =
        std::make_unique<ChatTargets>(plugin.settings, crypto::load_or_create_key_file(key_file));
    add_rule_routes(host, plugin.settings, *plugin.targets);
    add_chat_target_routes(host, plugin.settings, *plugin.targets);
    plugin.delivery = std::make_unique<ActionDelivery>(host, plugin.settings, *plugin.targets);
    plugin.delivery->install();
    auto& builds = host.services().require<builds::BuildsService>();
    add_run_routes(host, builds, *plugin.delivery);
    subscribe_rules(host, builds, *plugin.delivery);
}

}  // namespace

LOUPE_PLUGIN("automation", LOUPE_VERSION, LOUPE_REQUIRES("auth", "builds"), install)
