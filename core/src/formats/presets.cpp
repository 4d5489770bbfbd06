#include "comet/presets.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <cmath>

#include "comet/check.hpp"
#include "comet/config.hpp"
#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"
#include "comet/fields.hpp"
#include "comet/workload.hpp"
#include "comet/report.hpp"
#include "formats/json_reader.hpp"
#include "formats/scenario_sections.hpp"

namespace comet {
namespace {

namespace fs = std::filesystem;

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

// Reads {"format": <format>, "version": 1, ...} and hands the rest to `body`.
template <class T>
Loaded<T> load_preset(const fs::path& file, std::string_view format, T preset, const std::function<void(ObjectReader&, T&)>& body,
                      std::string_view section) {
    Loaded<T> out;
    const std::string label = file.string();
    std::string text;
    if (std::string problem = read_json_file(file, text); !problem.empty()) {
        out.errors.push_back(label + ": " + problem);
        return out;
    }
    JsonReader r(label);
    r.set_allowed_hint(sections::allowed_by_rule);
    const auto doc = r.parse(text);
    if (doc) {
        r.object(*doc, [&](ObjectReader& top) {
            std::string f;
            if (top.required_string("format", f) && f != format) {
                top.error("format", "is \"" + f + "\", must be \"" + std::string(format) + "\"");
                top.allow_all();
                return;
            }
            int version = 0;
            if (top.required_int("version", version) && version != 1)
                top.error("version", "is " + std::to_string(version) + "; this build reads version 1");
            body(top, preset);
        });
    }
    // Range and cross-field rules of the preset's own section only. The other sections hold the
    // smallest valid values: check_config() skips the cross-field rules (kv_heads divides heads,
    // reserved below capacity, expanded bandwidth with capacity) while any field is out of range,
    // and a default Config has zeros everywhere.
    if (r.ok()) {
        Config c;
        c.model = {1, 1, 1, 1, 1, 1, false, 1, 1, true, true, true};
        c.node.matrix_fp16_tflops = c.node.vector_tflops = c.node.hbm_bandwidth_gbps = 1;
        c.node.hbm_capacity_gib = 1e6;  // a software preset's reserve is checked against the largest node
        c.software.hbm_reserved_gib = c.software.hbm_allocator_margin = 0;  // and a node's without a reserve
        c.node.scale_up.bandwidth_gbps = c.node.scale_out.bandwidth_gbps = 1;
        c.training.global_batch = 1;
        std::string own = std::string(section) + ".";
        if constexpr (std::is_same_v<T, NodePreset>) {
            c.node = preset.node;
        } else if constexpr (std::is_same_v<T, SoftwarePreset>) {
            c.software = preset.software;
        } else if (preset.workload == Workload::dlrm) {
            c.workload = Workload::dlrm;
            c.dlrm = preset.dlrm;
            own = "dlrm.";
        } else {
            c.model = preset.model;
        }
        for (const FieldError& e : check_config(c))
            if (e.path.rfind(own, 0) == 0) r.error("", e.message());
    }
    out.errors = r.take_errors();
    if (out.errors.empty()) {
        preset.id = file.stem().string();
        out.value = std::move(preset);
    }
    return out;
}

template <class T>
std::vector<T> load_all(const fs::path& dir, Loaded<T> (*load)(const fs::path&), std::vector<std::string>& errors) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") files.push_back(e.path());
    if (ec) errors.push_back(dir.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<T> out;
    for (const auto& f : files) {
        auto l = load(f);
        if (l.ok())
            out.push_back(std::move(*l.value));
        else
            errors.insert(errors.end(), l.errors.begin(), l.errors.end());
    }
    return out;
}

void read_aliases(ObjectReader& top, std::vector<std::string>& out) {
    if (const nlohmann::json* aliases = top.value("aliases")) {
        if (!aliases->is_array())
            top.error("aliases", "expected an array of strings");
        else
            for (const auto& a : *aliases) {
                if (a.is_string())
                    out.push_back(a.get<std::string>());
                else
                    top.error("aliases", "expected an array of strings, got " + describe_json_value(a));
            }
    }
}

void require_source(ObjectReader& o, std::string& source) {
    if (o.required_string("source", source) && source.empty())
        o.error("source", "is empty; must say where the numbers come from (a paper, a model card, a price list)");
}

TrainingPreset read_training_preset(ObjectReader& o, Workload w) {
    TrainingPreset t;
    if (w == Workload::dlrm) {
        o.optional_enum("precision", t.precision, sections::precision_names);
        if (o.optional_int("global_batch_samples", t.batch_samples) && (t.batch_samples < 1 || t.batch_samples > 1'000'000'000'000LL))
            o.error("global_batch_samples", "is " + std::to_string(t.batch_samples) + "; must be an integer from 1 to 1e12 samples");
        require_source(o, t.source);
        return t;
    }
    if (o.optional_int("seq_len", t.seq_len) && o.has("seq_len") && (t.seq_len < 1 || t.seq_len > 67108864))
        o.error("seq_len", "is " + std::to_string(t.seq_len) + "; must be an integer from 1 to 67108864 tokens");
    o.optional_enum("precision", t.precision, sections::precision_names);
    o.optional_enum("attention", t.attention, sections::attention_names);
    o.optional_bool("dropout", t.dropout);
    if (o.optional_int("global_batch_tokens", t.batch_tokens) && o.has("global_batch_tokens") &&
        (t.batch_tokens < 1 || t.batch_tokens > 1'000'000'000'000LL))
        o.error("global_batch_tokens", "is " + std::to_string(t.batch_tokens) + "; must be an integer from 1 to 1e12 tokens");
    if (o.optional_number("tokens_to_train", t.tokens_to_train) && o.has("tokens_to_train") &&
        !(t.tokens_to_train >= 1e6 && t.tokens_to_train <= 1e16))
        o.error("tokens_to_train", "is " + format_printf("%g", t.tokens_to_train) + "; must be from 1e6 to 1e16 tokens");
    require_source(o, t.source);
    return t;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

fs::path presets_dir() {
    if (const char* env = std::getenv("COMET_PRESETS_DIR"); env && *env) return env;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path installed = exe.parent_path().parent_path() / config::presets_install_dir;
        if (is_dir(installed)) return installed;
    }
    return config::presets_source_dir;
}

Loaded<NodePreset> load_node_preset(const fs::path& file) {
    return load_preset<NodePreset>(
        file, "comet-node", NodePreset{},
        [](ObjectReader& top, NodePreset& p) {
            read_aliases(top, p.aliases);
            // A file written before scenario format 4 may still give the software's memory reserve.
            sections::LegacyNodeSoftware legacy;
            legacy.memory_allowed = true;
            top.required_object("node", [&](ObjectReader& o) { sections::read_node(o, p.node, p.info, &legacy); });
            p.legacy_memory = legacy.memory;
            if (p.legacy_memory != LegacyNodeMemory{})
                p.info.source += (p.info.source.empty() ? "" : " ") +
                                 std::string(
                                     "(This file's hbm_reserved_gib and hbm_allocator_margin are the software's since "
                                     "scenario format 4, set in the Software section; they apply only to older "
                                     "scenarios that name this node.)");
            top.optional_object("price", [&](ObjectReader& o) {
                PricePreset price;
                const bool hourly = o.has("price_per_gpu_hour_usd"), purchase = o.has("purchase_price_per_gpu_usd");
                if (hourly == purchase)
                    o.reader().error(o.path(), hourly ? "gives both price_per_gpu_hour_usd and purchase_price_per_gpu_usd; give one: "
                                                        "an hourly price or a purchase price"
                                                      : "has no price; give price_per_gpu_hour_usd (US dollars per GPU-hour) or "
                                                        "purchase_price_per_gpu_usd (US dollars per accelerator)");
                if (hourly && o.required_number("price_per_gpu_hour_usd", price.price_per_gpu_hour_usd) &&
                    !(std::isfinite(price.price_per_gpu_hour_usd) && price.price_per_gpu_hour_usd > 0))
                    o.error("price_per_gpu_hour_usd", "is " + format_printf("%g", price.price_per_gpu_hour_usd) +
                                                          "; must be a price above 0 US dollars per GPU-hour");
                if (purchase && o.required_number("purchase_price_per_gpu_usd", price.purchase_price_per_gpu_usd) &&
                    !(std::isfinite(price.purchase_price_per_gpu_usd) && price.purchase_price_per_gpu_usd > 0))
                    o.error("purchase_price_per_gpu_usd", "is " + format_printf("%g", price.purchase_price_per_gpu_usd) +
                                                              "; must be a price above 0 US dollars per accelerator");
                require_source(o, price.source);
                p.price = std::move(price);
            });
        },
        "node");
}

Loaded<SoftwarePreset> load_software_preset(const fs::path& file) {
    return load_preset<SoftwarePreset>(
        file, "comet-software", SoftwarePreset{},
        [](ObjectReader& top, SoftwarePreset& p) {
            std::vector<std::string> given;
            read_aliases(top, p.aliases);
            top.required_object("software", [&](ObjectReader& o) {
                sections::read_software(o, p.software, p.info);
                require_source(o, p.info.source);
                for (const FieldDesc& f : section_fields("software")) {
                    const std::string_view key = f.path.substr(std::string_view("software.").size());
                    if (o.has(key)) given.emplace_back(key);
                }
            });
            // Every value the file gives names where it comes from.
            top.required_object("sources", [&](ObjectReader& o) {
                for (const std::string& key : given) {
                    std::string text;
                    if (!o.has(key))
                        o.error(key, "missing: every software value cites its source (code at a tag, documentation or a measurement)");
                    else if (o.required_string(key, text) && text.find_first_not_of(" \t") == std::string::npos)
                        o.error(key, "is empty; cite where software." + key + " comes from");
                    else
                        p.sources.emplace_back(key, text);
                }
                for (const FieldDesc& f : section_fields("software")) {
                    const std::string key(f.path.substr(std::string_view("software.").size()));
                    if (o.has(key) && std::find(given.begin(), given.end(), key) == given.end()) {
                        o.allow(key);
                        o.error(key, "cites a source for a value the software section does not give");
                    }
                }
            });
        },
        "software");
}

Loaded<ModelPreset> load_model_preset(const fs::path& file) {
    return load_preset<ModelPreset>(
        file, "comet-model", ModelPreset{},
        [](ObjectReader& top, ModelPreset& p) {
            sections::Derived derived;
            top.optional_enum("workload", p.workload, sections::workload_names);
            if (p.workload == Workload::dlrm)
                top.required_object("dlrm", [&](ObjectReader& o) { sections::read_dlrm(o, p.dlrm, p.info); });
            else
                top.required_object("model", [&](ObjectReader& o) { sections::read_model(o, p.model, p.info, derived); });
            top.optional_object("training", [&](ObjectReader& o) { p.training = read_training_preset(o, p.workload); });
        },
        "model");
}

fs::path user_presets_dir() {
    if (const char* env = std::getenv("COMET_USER_PRESETS_DIR"); env && *env) return env;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return fs::path(xdg) / "comet-explorer" / "presets";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local" / "share" / "comet-explorer" / "presets";
    return {};
}

namespace {

// Shipped presets, then the user's: a user preset with the same id replaces the shipped one.
template <class T>
std::vector<T> load_both(std::string_view kind, Loaded<T> (*load)(const fs::path&), std::vector<std::string>& errors) {
    std::vector<T> all = load_all<T>(presets_dir() / kind, load, errors);
    const fs::path user = user_presets_dir();
    if (user.empty() || !is_dir(user / kind)) return all;
    for (T& u : load_all<T>(user / kind, load, errors)) {
        auto same = std::find_if(all.begin(), all.end(), [&](const T& p) { return p.id == u.id; });
        if (same != all.end())
            *same = std::move(u);
        else
            all.push_back(std::move(u));
    }
    return all;
}

template <class T>
std::optional<T> find_preset(const std::vector<T>& all, std::string_view name) {
    const std::string want = lower(name);
    for (const T& p : all) {
        bool hit = lower(p.id) == want || lower(p.info.name) == want;
        if constexpr (std::is_same_v<T, NodePreset> || std::is_same_v<T, SoftwarePreset>)
            for (const auto& a : p.aliases) hit = hit || lower(a) == want;
        if (hit) return p;
    }
    return std::nullopt;
}

std::string save_user_preset(std::string_view kind, const std::string& id, const nlohmann::ordered_json& doc) {
    if (id.empty() || id.find_first_of("/\\") != std::string::npos || id.front() == '.')
        return "invalid preset name \"" + id + "\": use letters, digits, '-' and '_'";
    const fs::path dir = user_presets_dir() / kind;
    if (user_presets_dir().empty()) return "no user data folder (HOME and XDG_DATA_HOME are unset)";
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create " + dir.string() + ": " + ec.message();
    return save_text_atomically(dir / (id + ".json"), doc.dump(2) + "\n");
}

}  // namespace

std::vector<NodePreset> load_node_presets(std::vector<std::string>& errors) {
    return load_both<NodePreset>("nodes", load_node_preset, errors);
}

std::vector<ModelPreset> load_model_presets(std::vector<std::string>& errors) {
    return load_both<ModelPreset>("models", load_model_preset, errors);
}

std::vector<SoftwarePreset> load_software_presets(std::vector<std::string>& errors) {
    return load_both<SoftwarePreset>("software", load_software_preset, errors);
}

std::optional<SoftwarePreset> find_software_preset(std::string_view name) {
    std::vector<std::string> errors;
    return find_preset(load_software_presets(errors), name);
}

std::optional<NodePreset> find_node_preset(std::string_view name) {
    std::vector<std::string> errors;
    return find_preset(load_node_presets(errors), name);
}

std::optional<ModelPreset> find_model_preset(std::string_view name) {
    std::vector<std::string> errors;
    return find_preset(load_model_presets(errors), name);
}

std::string known_preset_names(std::string_view kind) {
    std::vector<std::string> errors, ids;
    if (kind == "nodes")
        for (const auto& p : load_node_presets(errors)) ids.push_back(p.id);
    else if (kind == "software")
        for (const auto& p : load_software_presets(errors)) ids.push_back(p.id);
    else
        for (const auto& p : load_model_presets(errors)) ids.push_back(p.id);
    std::string out = "known: ";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + ids[i];
    return ids.empty() ? "no presets found in " + (presets_dir() / kind).string() : out;
}

std::string save_user_node_preset(const std::string& id, const Provenance& info, const NodeSpec& node) {
    nlohmann::ordered_json doc;
    doc["format"] = "comet-node";
    doc["version"] = 1;
    doc["aliases"] = nlohmann::ordered_json::array();
    doc["node"] = sections::node_json(node, info);
    return save_user_preset("nodes", id, doc);
}

std::string save_user_model_preset(const std::string& id, const Provenance& info, const ModelSpec& model) {
    nlohmann::ordered_json doc;
    doc["format"] = "comet-model";
    doc["version"] = 1;
    doc["model"] = sections::model_json(model, info);
    return save_user_preset("models", id, doc);
}

namespace {
template <class T>
const T* match_preset(const std::vector<T>& presets, std::string_view text) {
    const std::string hay = lower(text);
    const T* best = nullptr;
    std::size_t best_len = 0;
    for (const auto& p : presets) {
        std::vector<std::string> names = p.aliases;
        names.push_back(p.id);
        names.push_back(p.info.name);
        for (const auto& n : names) {
            if (n.empty()) continue;
            if (hay.find(lower(n)) != std::string::npos && n.size() > best_len) {
                best = &p;
                best_len = n.size();
            }
        }
    }
    return best;
}
}  // namespace

const NodePreset* node_preset_of(const std::vector<NodePreset>& presets, const NodeSpec& node) {
    for (const NodePreset& p : presets)
        if (p.node == node) return &p;
    return nullptr;
}

const SoftwarePreset* software_preset_of(const std::vector<SoftwarePreset>& presets, const SoftwareSpec& software,
                                         std::string_view prefer_name) {
    const SoftwarePreset* found = nullptr;
    for (const SoftwarePreset& p : presets) {
        if (!(p.software == software)) continue;
        if (p.info.name == prefer_name) return &p;
        if (!found) found = &p;
    }
    return found;
}

const NodePreset* match_node_preset(const std::vector<NodePreset>& presets, std::string_view text) { return match_preset(presets, text); }

const SoftwarePreset* match_software_preset(const std::vector<SoftwarePreset>& presets, std::string_view text) {
    return match_preset(presets, text);
}

namespace {

std::string tokens_text(double tokens) {
    return tokens >= 1e6 ? format_printf("%.3g M tokens", tokens / 1e6) : format_printf("%.0f tokens", tokens);
}

template <class T>
void note(std::vector<std::string>& out, const std::string& field, const T& from, const T& to, const std::string& from_text,
          const std::string& to_text) {
    if (!(from == to)) out.push_back(field + " " + from_text + " \u2192 " + to_text);
}

std::string on_off(bool b) { return b ? "on" : "off"; }

}  // namespace

std::vector<std::string> apply_node_preset(Scenario& s, const NodePreset& p) {
    std::vector<std::string> out;
    const NodeSpec before = s.config.node;
    const std::string old_name = s.node_info.name.empty() ? "custom node" : s.node_info.name;
    if (!(before == p.node) || s.node_info.name != p.info.name) out.push_back("node " + old_name + " \u2192 " + p.info.name);
    note(out, "node power", before.power_kw, p.node.power_kw, format_printf("%g kW", before.power_kw),
         p.node.power_kw > 0 ? format_printf("%g kW", p.node.power_kw) : std::string("unknown"));
    s.config.node = p.node;
    s.node_info = p.info;
    // One node, one price: a price a design of the comparison already has for this node (typed in
    // Compare or from its own preset) is the node's price, not the preset's list price.
    if (const Design* priced = design_pricing(s, p.node)) {
        const double hourly = priced->price_per_gpu_hour_usd, purchase = hourly > 0 ? 0.0 : priced->purchase_price_per_gpu_usd;
        const std::string by = " (the price design \"" + priced->name + "\" has for this node)";
        note(out, "price", s.cost.price_per_gpu_hour_usd, hourly,
             s.cost.price_per_gpu_hour_usd > 0 ? format_printf("$%.2f", s.cost.price_per_gpu_hour_usd) : std::string("none"),
             hourly > 0 ? format_printf("$%.2f per GPU-hour", hourly) + by : std::string("none"));
        note(out, "purchase price", s.cost.purchase_price_per_gpu_usd, purchase,
             s.cost.purchase_price_per_gpu_usd > 0 ? format_usd(s.cost.purchase_price_per_gpu_usd) : std::string("none"),
             purchase > 0 ? format_usd(purchase) + " per GPU" + by : std::string("none"));
        set_node_price(s, p.node, hourly, purchase);
    } else if (p.price) {
        // The preset's price replaces the scenario's GPU price whole: an hourly price left
        // beside a preset's purchase price would win over it (docs/economics.md).
        const PricePreset& price = *p.price;
        CostInputs& cost = s.cost;
        note(out, "price", cost.price_per_gpu_hour_usd, price.price_per_gpu_hour_usd,
             cost.price_per_gpu_hour_usd > 0 ? format_printf("$%.2f", cost.price_per_gpu_hour_usd) : std::string("none"),
             price.price_per_gpu_hour_usd > 0
                 ? format_printf("$%.2f per GPU-hour", price.price_per_gpu_hour_usd) + " (" + price.source + ")"
                 : std::string("none (the preset gives a purchase price)"));
        note(out, "purchase price", cost.purchase_price_per_gpu_usd, price.purchase_price_per_gpu_usd,
             cost.purchase_price_per_gpu_usd > 0 ? format_usd(cost.purchase_price_per_gpu_usd) : std::string("none"),
             price.purchase_price_per_gpu_usd > 0 ? format_usd(price.purchase_price_per_gpu_usd) + " per GPU (" + price.source + ")"
                                                  : std::string("none (the preset gives an hourly price)"));
        cost.price_per_gpu_hour_usd = price.price_per_gpu_hour_usd;
        cost.purchase_price_per_gpu_usd = price.purchase_price_per_gpu_usd;
    }
    return out;
}

namespace {
// A preset of the other workload switches the scenario's workload and strategy (switch_workload).
void switch_workload(Scenario& s, Workload w, std::vector<std::string>& out) {
    const Workload was = s.config.workload;
    if (was == w) return;
    const Strategy before = s.config.strategy;
    switch_workload(s.config, w);
    out.push_back("workload " + std::string(to_string(was)) + " \u2192 " + std::string(to_string(w)));
    out.push_back("strategy " + format_strategy(before, was) + " \u2192 " + format_strategy(s.config.strategy, w) +
                  (w == Workload::dlrm ? " (a DLRM's MLPs are data-parallel; its tables are sharded)" : ""));
}
}  // namespace

double preset_parameters(const ModelPreset& p) noexcept {
    return p.workload == Workload::dlrm ? dlrm_embedding_parameters(p.dlrm) + dlrm_mlp_parameters(p.dlrm) : total_parameters(p.model);
}

std::vector<std::string> apply_model_preset(Scenario& s, const ModelPreset& p) {
    std::vector<std::string> out;
    switch_workload(s, p.workload, out);
    if (p.workload == Workload::dlrm) {
        const Config before = s.config;
        const std::string old_name = s.model_info.name.empty() ? "custom model" : s.model_info.name;
        if (!(before.dlrm == p.dlrm) || s.model_info.name != p.info.name) out.push_back("model " + old_name + " \u2192 " + p.info.name);
        s.config.dlrm = p.dlrm;
        s.model_info = p.info;
        if (p.training) {
            s.config.training.precision = p.training->precision;
            if (p.training->batch_samples > 0) s.config.training.global_batch = p.training->batch_samples;
        }
        const TrainingSpec& a = before.training;
        const TrainingSpec& b = s.config.training;
        note(out, "precision", a.precision, b.precision, std::string(to_string(a.precision)), std::string(to_string(b.precision)));
        note(out, "global batch", a.global_batch, b.global_batch, std::to_string(a.global_batch),
             std::to_string(b.global_batch) + " samples");
        return out;
    }
    const Config before = s.config;
    const std::string old_name = s.model_info.name.empty() ? "custom model" : s.model_info.name;
    if (!(before.model == p.model) || s.model_info.name != p.info.name) out.push_back("model " + old_name + " \u2192 " + p.info.name);
    s.config.model = p.model;
    s.model_info = p.info;
    if (p.training) {
        const TrainingPreset& t = *p.training;
        if (t.seq_len > 0) s.config.model.seq_len = t.seq_len;
        s.config.training.precision = t.precision;
        s.config.training.attention = t.attention;
        s.config.training.dropout = t.dropout;
        if (t.batch_tokens > 0)
            s.config.training.global_batch = std::max(1LL, std::llround(double(t.batch_tokens) / s.config.model.seq_len));
        if (t.tokens_to_train > 0) {
            const double was = s.cost.tokens_to_train;
            s.cost.tokens_to_train = t.tokens_to_train;
            note(out, "token budget", was, t.tokens_to_train, was > 0 ? format_token_budget(was) : std::string("none"),
                 format_token_budget(t.tokens_to_train));
        }
    }
    const TrainingSpec& a = before.training;
    const TrainingSpec& b = s.config.training;
    note(out, "sequence length", before.model.seq_len, s.config.model.seq_len, std::to_string(before.model.seq_len),
         std::to_string(s.config.model.seq_len));
    note(out, "precision", a.precision, b.precision, std::string(to_string(a.precision)), std::string(to_string(b.precision)));
    note(out, "attention", a.attention, b.attention, std::string(to_string(a.attention)), std::string(to_string(b.attention)));
    note(out, "dropout", a.dropout, b.dropout, on_off(a.dropout), on_off(b.dropout));
    note(out, "global batch", a.global_batch, b.global_batch, std::to_string(a.global_batch),
         std::to_string(b.global_batch) + " sequences (" + tokens_text(double(b.global_batch) * s.config.model.seq_len) + ")");
    return out;
}

}  // namespace comet
