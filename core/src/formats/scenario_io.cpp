#include "comet/scenario.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comet/check.hpp"
#include "comet/economics.hpp"
#include "comet/knobs.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "formats/json_reader.hpp"
#include "formats/scenario_internal.hpp"
#include "formats/scenario_sections.hpp"

namespace comet {

namespace {

using nlohmann::ordered_json;
using namespace sections;

// Returns false when the rest of the file should not be read: it is not a scenario, or it is
// from a newer format whose keys this build would only misreport as unknown.
bool read_header(ObjectReader& top, int& version) {
    bool readable = true;
    std::string format;
    if (top.required_string("format", format) && format != scenario_format_name) {
        top.reader().error(top.path_of("format") + " = " + quote_for_message(format),
                           "must be \"" + std::string(scenario_format_name) + "\" (not a COMET Explorer scenario file)");
        readable = false;
    }
    if (top.required_int("version", version)) {
        const std::string current = std::to_string(scenario_format_version);
        if (version > scenario_format_version) {
            top.error("version", "file was written by a newer COMET Explorer (format version " + std::to_string(version) +
                                     "); this build reads versions up to " + current);
            readable = false;
        } else if (version < 1) {
            top.reader().error(top.path_of("version") + " = " + std::to_string(version), "must be a format version from 1 to " + current);
        }
    }
    return readable;
}

// A "node" key is either an embedded object or the name of a preset. In a file of format 1 to 3
// (`legacy` given) a preset's memory reserve is what the preset held then.
void read_node_or_preset(ObjectReader& o, NodeSpec& node, Provenance& info, sections::LegacyNodeSoftware* legacy) {
    if (const nlohmann::json* ref = o.value("node"); ref && ref->is_string()) {
        if (auto preset = find_node_preset(ref->get<std::string>())) {
            node = preset->node;
            info = preset->info;
            if (legacy != nullptr && legacy->memory_allowed)
                legacy->memory = preset->legacy_memory == LegacyNodeMemory{} ? format3_node_preset_memory() : preset->legacy_memory;
        } else {
            o.reader().error(o.path_of("node") + " = " + quote_for_message(ref->get<std::string>()),
                             "no node preset of that name (" + known_preset_names("nodes") + ")");
        }
    } else {
        o.required_object("node", [&](ObjectReader& n) { read_node(n, node, info, legacy); });
    }
}

// "software": the name of a software preset or an inline software object (format 3).
void read_software_or_preset(ObjectReader& o, SoftwareSpec& sw, Provenance& info, bool required) {
    if (const nlohmann::json* ref = o.value("software"); ref && ref->is_string()) {
        if (auto preset = find_software_preset(ref->get<std::string>())) {
            sw = preset->software;
            info = preset->info;
        } else {
            o.reader().error(o.path_of("software") + " = " + quote_for_message(ref->get<std::string>()),
                             "no software preset of that name (" + known_preset_names("software") + ")");
        }
    } else if (required) {
        o.required_object("software", [&](ObjectReader& r) { read_software(r, sw, info); });
    } else {
        o.optional_object("software", [&](ObjectReader& r) { read_software(r, sw, info); });
    }
}

void read_cost(ObjectReader& o, CostInputs& in) {
    o.optional_number("price_per_gpu_hour_usd", in.price_per_gpu_hour_usd);
    o.optional_number("purchase_price_per_gpu_usd", in.purchase_price_per_gpu_usd);
    o.optional_number("lifetime_years", in.lifetime_years);
    o.optional_number("pue", in.pue);
    o.optional_number("price_per_kwh_usd", in.price_per_kwh_usd);
    o.optional_number("tokens_to_train", in.tokens_to_train);
}

// What a file of format 1 to 3 gives a design that it no longer says itself: the scenario's host
// time per kernel (formats 1 and 2) and its software before its node's memory reserve went in.
struct LegacyScenario {
    bool host_op_in_node = false;  // formats 1 and 2
    double host_op_us = 0;
    SoftwareSpec software;
    Provenance software_info;
};

// A design's "strategy" is "best" or a strategy object; its "software" (format 3) is optional.
// `legacy`: nullptr in format 4. In older files a design whose node gives another host time
// (formats 1, 2) or another memory reserve (1 to 3) than the scenario's gets its own software.
void read_design(ObjectReader& o, Design& d, const Scenario& s, const LegacyScenario* legacy) {
    o.required_string("name", d.name);
    if (legacy != nullptr) {
        sections::LegacyNodeSoftware own;
        own.host_op_allowed = legacy->host_op_in_node;
        own.host_op_us = legacy->host_op_us;
        own.memory_allowed = true;
        if (legacy->host_op_in_node && o.has("software")) {
            o.allow("software");
            o.error("software", "needs format version 3");
        }
        read_node_or_preset(o, d.node, d.node_info, &own);
        SoftwareSpec sw = legacy->software;
        Provenance info = legacy->software_info;
        if (legacy->host_op_in_node && own.host_op_us != legacy->host_op_us) {
            sw = legacy_software(own.host_op_us);
            info = legacy_software_info(own.host_op_us);
        } else if (!legacy->host_op_in_node && o.has("software")) {
            read_software_or_preset(o, sw, info, true);
            d.own_software = true;
        }
        with_legacy_memory(sw, info, own.memory, !legacy->host_op_in_node);
        if (d.own_software || sw != s.config.software) {
            d.own_software = true;
            d.software = sw;
            d.software_info = info;
        }
    } else {
        read_node_or_preset(o, d.node, d.node_info, nullptr);
        d.own_software = o.has("software");
        if (d.own_software) read_software_or_preset(o, d.software, d.software_info, true);
    }
    o.required_int("nodes", d.nodes);
    o.optional_number("price_per_gpu_hour_usd", d.price_per_gpu_hour_usd);
    o.optional_number("purchase_price_per_gpu_usd", d.purchase_price_per_gpu_usd);
    if (const nlohmann::json* st = o.value("strategy"); st && st->is_string()) {
        if (st->get<std::string>() != "best")
            o.reader().error(o.path_of("strategy") + " = " + quote_for_message(st->get<std::string>()),
                             "must be \"best\" or a strategy object");
        d.best_strategy = true;
    } else {
        d.best_strategy = false;
        o.required_object("strategy", [&](ObjectReader& so) { read_strategy(so, d.strategy, s.config.workload); });
    }
}

void read_comparison(ObjectReader& o, Scenario& s, const LegacyScenario* legacy) {
    o.optional_int("baseline", s.baseline_design);
    const nlohmann::json* list = o.value("designs");
    if (list == nullptr) {
        o.error("designs", "missing (a list of 1 to " + std::to_string(max_designs) + " designs)");
        return;
    }
    if (!list->is_array() || list->empty() || list->size() > static_cast<std::size_t>(max_designs)) {
        o.reader().error(o.path_of("designs") + " = " + describe_json_value(*list),
                         "must be a list of 1 to " + std::to_string(max_designs) + " designs");
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const nlohmann::json& item = (*list)[i];
        const std::string path = o.path_of("designs") + "[" + std::to_string(i) + "]";
        if (!item.is_object()) {
            o.reader().error(path, "expected a design object, got " + describe_json_value(item));
            continue;
        }
        Design d;
        ObjectReader reader(o.reader(), item, path);
        read_design(reader, d, s, legacy);
        reader.report_unknown_keys();
        s.designs.push_back(std::move(d));
    }
    if (!s.designs.empty() && (s.baseline_design < 0 || s.baseline_design >= static_cast<int>(s.designs.size())))
        o.reader().error(o.path_of("baseline") + " = " + std::to_string(s.baseline_design),
                         "must be the index of a design, 0 to " + std::to_string(s.designs.size() - 1));
}

constexpr std::array<std::string_view, 9> metric_ids{"iteration_time",          "tokens_per_s",         "mfu",
                                                     "exposed_comm_share",      "exposed_memory_share", "hbm_use",
                                                     "cost_per_million_tokens", "time_to_train",        "strategy_family"};
// As comet-explorer --page names them, in tab order.
constexpr std::array<std::string_view, 4> page_ids{"explore", "compare", "analysis", "fsdp"};

const std::vector<std::string_view>& knob_ids() {
    static const std::vector<std::string_view> ids = [] {
        std::vector<std::string_view> out;
        for (const KnobInfo& k : all_knobs()) out.push_back(k.id);
        return out;
    }();
    return ids;
}

void read_view(ObjectReader& o, ExplorerView& v) {
    std::size_t i = 0;
    if (o.optional_choice("x", i, knob_ids())) v.x = knob_ids()[i];
    if (o.optional_choice("y", i, knob_ids())) v.y = knob_ids()[i];
    if (o.optional_choice("metric", i, metric_ids)) v.metric = metric_ids[i];
    o.optional_bool("search", v.search);
    o.optional_bool("relative", v.relative);
    for (const auto& [key, range] : {std::pair{"x_range", &v.x_range}, std::pair{"y_range", &v.y_range}}) {
        const nlohmann::json* r = o.value(key);
        if (r == nullptr) continue;
        const bool ok = r->is_array() && r->size() == 2 && (*r)[0].is_number() && (*r)[1].is_number() &&
                        std::isfinite((*r)[0].get<double>()) && std::isfinite((*r)[1].get<double>()) &&
                        (*r)[0].get<double>() < (*r)[1].get<double>();
        if (!ok) {
            // A short list is shown as written ("[5,1]"), anything else described.
            const std::string given = r->is_array() && r->size() <= 4 ? r->dump() : describe_json_value(*r);
            o.reader().error(o.path_of(key) + " = " + given, "must be [from, to]: two finite numbers, from below to");
            continue;
        }
        *range = std::array<double, 2>{(*r)[0].get<double>(), (*r)[1].get<double>()};
    }
    if (o.optional_int("steps", v.steps) && (v.steps < view_min_steps || v.steps > view_max_steps || v.steps % 2 == 0))
        o.reader().error(o.path_of("steps") + " = " + std::to_string(v.steps),
                         "must be an odd number from " + std::to_string(view_min_steps) + " to " + std::to_string(view_max_steps));
    if (o.optional_choice("page", i, page_ids)) v.page = page_ids[i];
    const nlohmann::json* pins = o.value("pins");
    if (pins == nullptr) return;
    const std::string rule = "must be a list of at most " + std::to_string(view_max_pins) + " [x, y] pairs of finite numbers";
    if (!pins->is_array() || pins->size() > static_cast<std::size_t>(view_max_pins)) {
        o.reader().error(o.path_of("pins") + " = " + describe_json_value(*pins), rule);
        return;
    }
    for (std::size_t k = 0; k < pins->size(); ++k) {
        const nlohmann::json& p = (*pins)[k];
        const bool pair = p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() && std::isfinite(p[0].get<double>()) &&
                          std::isfinite(p[1].get<double>());
        if (!pair) {
            o.reader().error(o.path_of("pins") + "[" + std::to_string(k) + "] = " + describe_json_value(p), rule);
            continue;
        }
        v.pins.push_back({p[0].get<double>(), p[1].get<double>()});
    }
}

void read_scenario(ObjectReader& top, Scenario& s, Derived& derived) {
    int version = 0;
    if (!read_header(top, version)) {
        top.allow_all();
        return;
    }
    top.optional_string("name", s.name);
    top.optional_string("description", s.description);
    Config& c = s.config;
    if (top.has("workload") && version < 2) {
        top.allow("workload");
        top.error("workload", "needs format version 2 (this file says version " + std::to_string(version) + ")");
    } else {
        top.optional_enum("workload", c.workload, workload_names);
    }
    if (c.workload == Workload::dlrm) {
        // A DLRM: the "dlrm" section (or the name of a DLRM model preset) instead of "model".
        if (top.has("model")) top.error("model", "a DLRM scenario describes its model in \"dlrm\", not in \"model\"");
        if (const nlohmann::json* ref = top.value("dlrm"); ref && ref->is_string()) {
            const auto preset = find_model_preset(ref->get<std::string>());
            if (preset && preset->workload == Workload::dlrm) {
                c.dlrm = preset->dlrm;
                s.model_info = preset->info;
            } else {
                top.reader().error(top.path_of("dlrm") + " = " + quote_for_message(ref->get<std::string>()),
                                   "no DLRM model preset of that name (" + known_preset_names("models") + ")");
            }
        } else {
            top.required_object("dlrm", [&](ObjectReader& o) { read_dlrm(o, c.dlrm, s.model_info); });
        }
    } else if (top.has("dlrm")) {
        top.error("dlrm", "only with \"workload\": \"dlrm\" (this scenario trains a transformer)");
    } else if (const nlohmann::json* ref = top.value("model"); ref && ref->is_string()) {
        if (auto preset = find_model_preset(ref->get<std::string>()); preset && preset->workload == Workload::transformer) {
            c.model = preset->model;
            s.model_info = preset->info;
        } else if (preset) {
            top.reader().error(top.path_of("model") + " = " + quote_for_message(ref->get<std::string>()),
                               "is a DLRM model preset: give it as \"dlrm\" with \"workload\": \"dlrm\"");
        } else {
            top.reader().error(top.path_of("model") + " = " + quote_for_message(ref->get<std::string>()),
                               "no model preset of that name (" + known_preset_names("models") + ")");
        }
    } else {
        top.required_object("model", [&](ObjectReader& o) { read_model(o, c.model, s.model_info, derived); });
    }
    sections::LegacyNodeSoftware legacy_node;
    legacy_node.host_op_allowed = version < 3;
    legacy_node.memory_allowed = version < 4;
    read_node_or_preset(top, c.node, s.node_info, version < 4 ? &legacy_node : nullptr);
    top.required_object("cluster", [&](ObjectReader& o) { o.required_int("nodes", c.cluster.nodes); });
    top.required_object("training", [&](ObjectReader& o) { read_training(o, c.training); });
    if (version < 3) {
        // The stack the file was priced with; "software" itself is format 3's.
        if (top.has("software")) {
            top.allow("software");
            top.error("software", "needs format version 3 (this file says version " + std::to_string(version) + ")");
        }
        c.software = legacy_software(legacy_node.host_op_us);
        s.software_info = legacy_software_info(legacy_node.host_op_us);
    } else {
        read_software_or_preset(top, c.software, s.software_info, true);
    }
    LegacyScenario legacy{version < 3, legacy_node.host_op_us, c.software, s.software_info};
    if (version < 4) with_legacy_memory(c.software, s.software_info, legacy_node.memory, version == 3);
    top.required_object("strategy", [&](ObjectReader& o) { read_strategy(o, c.strategy, c.workload); });
    top.optional_object("cost", [&](ObjectReader& o) { read_cost(o, s.cost); });
    top.optional_object("comparison", [&](ObjectReader& o) { read_comparison(o, s, version < 4 ? &legacy : nullptr); });
    if (top.has("view")) {
        ExplorerView v;
        if (top.optional_object("view", [&](ObjectReader& o) { read_view(o, v); })) s.view = std::move(v);
    }
}

// A design's node, cluster size and fixed strategy follow the same rules as the scenario's;
// the model and training are the scenario's and were checked with it.
void check_designs(JsonReader& r, const Scenario& s, std::string_view prefix) {
    for (std::size_t i = 0; i < s.designs.size(); ++i) {
        const Design& d = s.designs[i];
        const std::string at = std::string(prefix) + (prefix.empty() ? "" : ".") + "comparison.designs[" + std::to_string(i) + "].";
        for (const FieldError& e : check_config(design_config(s.config, d))) {
            const bool own = e.path.starts_with("node.") || e.path.starts_with("cluster.") ||
                             (d.own_software && e.path.starts_with("software.")) || (!d.best_strategy && e.path.starts_with("strategy."));
            if (own) r.error("", at + (e.path.starts_with("cluster.") ? e.message().substr(8) : e.message()));
        }
    }
}

void check_cost(JsonReader& r, const Scenario& s, std::string_view prefix) {
    const std::string at = prefix.empty() ? std::string() : std::string(prefix) + ".";
    for (const FieldError& e : check_cost_inputs(s.cost)) r.error("", at + e.message());
    for (std::size_t i = 0; i < s.designs.size(); ++i) {
        CostInputs own;
        own.price_per_gpu_hour_usd = s.designs[i].price_per_gpu_hour_usd;
        own.purchase_price_per_gpu_usd = s.designs[i].purchase_price_per_gpu_usd;
        for (const FieldError& e : check_cost_inputs(own))
            r.error("", at + "comparison.designs[" + std::to_string(i) + "]." + e.message().substr(5));  // drop "cost."
    }
}

bool source_has_error(const std::vector<FieldError>& errors, std::string_view source) {
    for (const auto& e : errors)
        if (e.path == source) return true;
    return false;
}

// Range and cross-field rules live in check_config(); run only on a structurally sound file.
// `prefix` is the key path of the scenario object ("" at the top level of a file).
void check_ranges(JsonReader& r, const Config& c, const Derived& derived, std::string_view prefix) {
    const std::vector<FieldError> errors = check_config(c);
    const bool heads_bad = source_has_error(errors, "model.heads");
    const bool hidden_bad = source_has_error(errors, "model.hidden");
    for (const FieldError& e : errors) {
        std::string line = e.message();
        if (derived.kv_heads && e.path == "model.kv_heads") {
            if (heads_bad) continue;
            line += " (model.kv_heads defaults to model.heads)";
        }
        if (derived.head_dim && e.path == "model.head_dim") {
            if (heads_bad || hidden_bad) continue;
            line += " (model.head_dim defaults to model.hidden / model.heads)";
        }
        if (!prefix.empty()) {
            line.insert(0, 1, '.');
            line.insert(0, prefix);
        }
        r.error("", line);
    }
}

Loaded<Scenario> finish(JsonReader& r, std::optional<Scenario> s) {
    Loaded<Scenario> out;
    out.errors = r.take_errors();
    if (out.errors.empty()) out.value = std::move(s);
    return out;
}

// ---- atomic save -------------------------------------------------------------------------

std::string errno_text(int err) { return std::generic_category().message(err); }

// Unique enough among concurrent savers; O_EXCL catches the rest.
std::string temp_suffix() {
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t x = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                      (static_cast<std::uint64_t>(::getpid()) << 32) ^ (counter.fetch_add(1) * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    char buf[20];
    std::snprintf(buf, sizeof buf, "%012llx", static_cast<unsigned long long>(x & 0xFFFFFFFFFFFFull));
    return buf;
}

// Opens a new temporary file beside `file`; returns the descriptor or -1 with errno set.
int create_temp_beside(const std::filesystem::path& file, std::filesystem::path& temp) {
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp = file;
        temp += ".tmp-" + temp_suffix();
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

std::string write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return "cannot write: " + errno_text(errno);
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

// A replaced file keeps its permissions instead of getting the umask default.
void copy_mode(int fd, const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) (void)::fchmod(fd, st.st_mode & 07777);
}

// Writes, flushes and closes; returns the problem or an empty string.
std::string write_and_sync(int fd, const std::filesystem::path& file, std::string_view text) {
    copy_mode(fd, file);
    std::string problem = write_all(fd, text);
    if (problem.empty() && ::fsync(fd) != 0) problem = "cannot flush to disk: " + errno_text(errno);
    if (::close(fd) != 0 && problem.empty()) problem = "cannot close: " + errno_text(errno);
    return problem;
}

// Makes the rename itself durable; failure here does not endanger either file version.
void sync_directory(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

}  // namespace

// ---- internal API (scenario_internal.hpp) --------------------------------------------------

std::optional<Scenario> read_scenario_json(JsonReader& r, const nlohmann::json& doc, std::string_view path_prefix) {
    const std::size_t errors_before = r.error_count();
    Scenario s;
    Derived derived;
    const auto read = [&](ObjectReader& top) { read_scenario(top, s, derived); };
    if (path_prefix.empty()) {
        if (!r.object(doc, read)) return std::nullopt;
    } else {
        if (!doc.is_object()) {
            r.error(path_prefix, "expected a scenario object, got " + describe_json_value(doc));
            return std::nullopt;
        }
        ObjectReader top(r, doc, std::string(path_prefix));
        read(top);
        top.report_unknown_keys();
    }
    if (r.error_count() == errors_before) {
        check_ranges(r, s.config, derived, path_prefix);
        check_designs(r, s, path_prefix);
        check_cost(r, s, path_prefix);
    }
    if (r.error_count() != errors_before) return std::nullopt;
    unify_node_prices(s);
    return s;
}

std::string scenario_allowed_hint(std::string_view path) { return allowed_by_rule(path); }

// ---- public API --------------------------------------------------------------------------

Loaded<Scenario> parse_scenario(std::string_view json_text, std::string_view label) {
    JsonReader r{std::string(label)};
    try {
        r.set_allowed_hint(allowed_by_rule);
        const std::optional<nlohmann::json> doc = r.parse(json_text);
        if (!doc) return finish(r, std::nullopt);
        return finish(r, read_scenario_json(r, *doc, ""));
    } catch (const std::exception& e) {  // allocation failure on hostile input
        r.error("", std::string("could not be read: ") + e.what());
        return finish(r, std::nullopt);
    }
}

Loaded<Scenario> load_scenario_file(const std::filesystem::path& file) {
    std::string text;
    if (std::string problem = read_json_file(file, text); !problem.empty()) {
        Loaded<Scenario> out;
        out.errors.push_back(file.string() + ": " + problem);
        return out;
    }
    return parse_scenario(text, file.string());
}

std::string strategy_to_json(const Strategy& s, Workload w) { return strategy_json(s, w).dump(2); }

std::string scenario_to_json(const Scenario& s) {
    const Config& c = s.config;
    ordered_json j;
    j["format"] = scenario_format_name;
    j["version"] = scenario_format_version;
    j["name"] = s.name;
    j["description"] = s.description;
    j["workload"] = to_string(c.workload);
    if (c.workload == Workload::dlrm)
        j["dlrm"] = dlrm_json(c.dlrm, s.model_info);
    else
        j["model"] = model_json(c.model, s.model_info);
    j["node"] = node_json(c.node, s.node_info);
    j["cluster"]["nodes"] = c.cluster.nodes;
    j["training"] = training_json(c.training);
    j["software"] = software_json(c.software, s.software_info);
    j["strategy"] = strategy_json(c.strategy, c.workload);
    ordered_json& cost = j["cost"];
    cost["price_per_gpu_hour_usd"] = s.cost.price_per_gpu_hour_usd;
    cost["purchase_price_per_gpu_usd"] = s.cost.purchase_price_per_gpu_usd;
    cost["lifetime_years"] = s.cost.lifetime_years;
    cost["pue"] = s.cost.pue;
    cost["price_per_kwh_usd"] = s.cost.price_per_kwh_usd;
    cost["tokens_to_train"] = s.cost.tokens_to_train;
    if (!s.designs.empty()) {
        ordered_json& cmp = j["comparison"];
        cmp["baseline"] = s.baseline_design;
        cmp["designs"] = ordered_json::array();
        for (const Design& d : s.designs) {
            ordered_json dj;
            dj["name"] = d.name;
            dj["node"] = node_json(d.node, d.node_info);
            dj["nodes"] = d.nodes;
            if (d.own_software) dj["software"] = software_json(d.software, d.software_info);
            dj["strategy"] = d.best_strategy ? ordered_json("best") : strategy_json(d.strategy, c.workload);
            dj["price_per_gpu_hour_usd"] = d.price_per_gpu_hour_usd;
            if (d.purchase_price_per_gpu_usd != 0) dj["purchase_price_per_gpu_usd"] = d.purchase_price_per_gpu_usd;
            cmp["designs"].push_back(std::move(dj));
        }
    }
    if (s.view) {
        ordered_json& v = j["view"];
        v["x"] = s.view->x;
        v["y"] = s.view->y;
        v["metric"] = s.view->metric;
        v["search"] = s.view->search;
        v["steps"] = s.view->steps;
        if (s.view->relative) v["relative"] = true;  // written only when on: older files keep their bytes
        if (s.view->x_range) v["x_range"] = ordered_json::array({(*s.view->x_range)[0], (*s.view->x_range)[1]});
        if (s.view->y_range) v["y_range"] = ordered_json::array({(*s.view->y_range)[0], (*s.view->y_range)[1]});
        v["pins"] = ordered_json::array();
        for (const auto& p : s.view->pins) v["pins"].push_back(ordered_json::array({p[0], p[1]}));
        v["page"] = s.view->page;
    }
    return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::span<const std::string_view> view_metric_ids() noexcept { return metric_ids; }
std::span<const std::string_view> view_page_ids() noexcept { return page_ids; }

Config design_config(const Config& base, const Design& d) {
    Config c = base;
    c.node = d.node;
    c.cluster.nodes = d.nodes;
    if (d.own_software) c.software = d.software;
    if (d.best_strategy) {
        c.strategy = Strategy{};
        c.strategy.dp = std::max(1, d.nodes) * std::max(1, d.node.accelerators);
    } else {
        c.strategy = d.strategy;
    }
    return c;
}

SoftwareSpec legacy_software(double host_op_us) noexcept {
    SoftwareSpec sw;
    sw.host_op_us = host_op_us;
    sw.grouped_gemm = GroupedGemm::per_expert;
    sw.moe_host_sync = true;
    return sw;
}

Provenance legacy_software_info(double host_op_us) {
    return {"Megatron-Core + TE (eager), format-2 file",
            "Loaded from a scenario of format 1 or 2, which had no software section: its node's host_op_us (" +
                format_printf("%g", host_op_us) +
                " us per kernel) and the one stack the model then knew (one GEMM launch per local expert, the MoE dispatch "
                "synced with the host). Pick a software preset (presets/software/) to price another stack."};
}

LegacyNodeMemory format3_node_preset_memory() noexcept {
    LegacyNodeMemory m;
    m.hbm_reserved_gib = 2.0;
    m.hbm_allocator_margin = 0.05;
    return m;
}

void with_legacy_memory(SoftwareSpec& sw, Provenance& info, const LegacyNodeMemory& node_memory, bool files_own_software) {
    const double reserved = node_memory.hbm_reserved_gib.value_or(0.0);
    const double margin = node_memory.hbm_allocator_margin.value_or(0.0);
    if (sw.hbm_reserved_gib == reserved && sw.hbm_allocator_margin == margin) return;
    if (files_own_software) info.name += info.name.empty() ? "Format-3 file's HBM reserve" : ", format-3 file's HBM reserve";
    info.source += (info.source.empty() ? "" : " ") + std::string("Its HBM reserve (") + format_printf("%g", reserved) +
                   " GiB) and allocator margin (" + format_printf("%g", margin) +
                   ") are its node's in a scenario file of format 1 to 3, which kept them with the node; the software gave " +
                   format_printf("%g", sw.hbm_reserved_gib) + " GiB and " + format_printf("%g", sw.hbm_allocator_margin) + ".";
    sw.hbm_reserved_gib = reserved;
    sw.hbm_allocator_margin = margin;
}

CostInputs design_cost(const CostInputs& scenario_cost, const Design& d) {
    CostInputs in = scenario_cost;
    if (d.price_per_gpu_hour_usd > 0) {
        in.price_per_gpu_hour_usd = d.price_per_gpu_hour_usd;
    } else if (d.purchase_price_per_gpu_usd > 0) {  // the scenario's hourly price would win over it
        in.price_per_gpu_hour_usd = 0;
        in.purchase_price_per_gpu_usd = d.purchase_price_per_gpu_usd;
    }
    return in;
}

bool on_scenario_node(const Scenario& s, const Design& d) { return d.node == s.config.node; }

std::string short_name(const std::string& name, std::string_view fallback) {
    std::string s = name.substr(0, name.find(" ("));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.empty() ? std::string(fallback) : s;
}

namespace {
constexpr std::string_view started_from = "Started from \u201c";
}  // namespace

std::string content_name(const Scenario& s) {
    return short_name(s.model_info.name, "custom model") + " on " + std::to_string(s.config.cluster.nodes) + " \u00d7 " +
           short_name(s.node_info.name, "custom node");
}

bool follow_content(const Scenario& before, Scenario& after) {
    const bool content_changed = before.model_info.name != after.model_info.name || before.node_info.name != after.node_info.name ||
                                 before.config.cluster.nodes != after.config.cluster.nodes ||
                                 before.config.workload != after.config.workload;
    if (!content_changed) return false;
    const std::string name = content_name(after);
    bool changed = false;
    if (after.name != name) {
        if (!after.description.empty() && after.description.rfind(started_from, 0) != 0 && !before.name.empty())
            after.description = std::string(started_from) + before.name + "\u201d: " + after.description;
        after.name = name;
        changed = true;
    }
    return changed;
}

namespace {
bool has_price(double hourly, double purchase) { return hourly > 0 || purchase > 0; }
}  // namespace

const Design* design_pricing(const Scenario& s, const NodeSpec& node) {
    for (const Design& d : s.designs)
        if (d.node == node && has_price(d.price_per_gpu_hour_usd, d.purchase_price_per_gpu_usd)) return &d;
    return nullptr;
}

int set_node_price(Scenario& s, const NodeSpec& node, double price_per_gpu_hour_usd, double purchase_price_per_gpu_usd) {
    // Not a price (negative, NaN, infinite) = none: the callers check what people type first.
    const auto price = [](double v) { return std::isfinite(v) && v > 0 ? v : 0.0; };
    const double hourly = price(price_per_gpu_hour_usd);
    const double purchase = hourly > 0 ? 0.0 : price(purchase_price_per_gpu_usd);
    const bool scenario_node = node == s.config.node;
    if (scenario_node) {
        s.cost.price_per_gpu_hour_usd = hourly;
        s.cost.purchase_price_per_gpu_usd = purchase;
    }
    int changed = 0;
    for (Design& d : s.designs) {
        if (!(d.node == node)) continue;
        const double want_hourly = scenario_node ? 0.0 : hourly, want_purchase = scenario_node ? 0.0 : purchase;
        if (d.price_per_gpu_hour_usd == want_hourly && d.purchase_price_per_gpu_usd == want_purchase) continue;
        d.price_per_gpu_hour_usd = want_hourly;
        d.purchase_price_per_gpu_usd = want_purchase;
        ++changed;
    }
    return changed;
}

void unify_node_prices(Scenario& s) {
    const auto same_as = [](const Design& d, double hourly, double purchase) {
        return d.price_per_gpu_hour_usd > 0 ? d.price_per_gpu_hour_usd == hourly : hourly <= 0 && d.purchase_price_per_gpu_usd == purchase;
    };
    std::vector<Design*> priced;
    for (Design& d : s.designs)
        if (on_scenario_node(s, d) && has_price(d.price_per_gpu_hour_usd, d.purchase_price_per_gpu_usd)) priced.push_back(&d);
    if (priced.empty()) return;
    double hourly = s.cost.price_per_gpu_hour_usd, purchase = s.cost.purchase_price_per_gpu_usd;
    if (!has_price(hourly, purchase)) {
        const Design& first = *priced.front();
        hourly = first.price_per_gpu_hour_usd;
        purchase = hourly > 0 ? 0.0 : first.purchase_price_per_gpu_usd;
        if (!std::all_of(priced.begin(), priced.end(), [&](const Design* d) { return same_as(*d, hourly, purchase); })) return;
        s.cost.price_per_gpu_hour_usd = hourly;
        s.cost.purchase_price_per_gpu_usd = purchase;
    } else if (hourly > 0) {
        purchase = 0;  // the scenario's hourly price wins over its purchase price
    }
    for (Design* d : priced)
        if (same_as(*d, hourly, purchase)) d->price_per_gpu_hour_usd = d->purchase_price_per_gpu_usd = 0;
}

Design design_from_scenario(const Scenario& s, std::string name, bool best_strategy) {
    Design d;
    d.name = std::move(name);
    d.node_info = s.node_info;
    d.node = s.config.node;
    d.nodes = s.config.cluster.nodes;
    d.best_strategy = best_strategy;
    d.strategy = s.config.strategy;
    d.own_software = true;
    d.software = s.config.software;
    d.software_info = s.software_info;
    return d;
}

std::string save_text_atomically(const std::filesystem::path& file, std::string_view text) {
    const std::string failed = "cannot save " + file.string() + ": ";
    if (!file.has_filename()) return failed + "not a file name";
    std::filesystem::path temp;
    const int fd = create_temp_beside(file, temp);
    if (fd < 0) return failed + "cannot create a temporary file beside it: " + errno_text(errno);
    std::string problem = write_and_sync(fd, file, text);
    if (problem.empty() && ::rename(temp.c_str(), file.c_str()) != 0) problem = "cannot replace it: " + errno_text(errno);
    if (!problem.empty()) {
        ::unlink(temp.c_str());
        return failed + problem;
    }
    sync_directory(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."));
    return {};
}

std::string save_scenario_file(const std::filesystem::path& file, const Scenario& s) {
    try {
        return save_text_atomically(file, scenario_to_json(s));
    } catch (const std::exception& e) {
        return "cannot save " + file.string() + ": " + e.what();
    }
}

}  // namespace comet
