// Scenario files: round trip, every documented error, hostile input and atomic saving.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

#include "comet/check.hpp"
#include "comet/fields.hpp"
#include "comet/scenario.hpp"
#include "comet/presets.hpp"
#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"

using namespace comet;

namespace {

QString label() { return QStringLiteral("bad.comet.json"); }  // a file name for the messages

Scenario full_scenario() {
    Scenario s;
    s.name = "Round trip \xE2\x80\x94 every field \"quoted\" \xC3\xBC";
    s.description = "line one\nline two\ttab \\ backslash";
    s.model_info = {"Model X", "paper, table 3"};
    s.node_info = {"Node Y", "datasheet"};
    ModelSpec& m = s.config.model;
    m = {96, 6144, 48, 8, 96, 16384, true, 4096, 50257, false, false, false};
    NodeSpec& n = s.config.node;
    n.accelerators = 4;
    n.matrix_fp16_tflops = 989.4;
    n.matrix_fp8_tflops = 1978.9;
    n.vector_tflops = 100.0 / 3.0;
    n.gemm = {0.1 + 0.2, 192.5, 4.000000000000001};
    n.hbm_capacity_gib = 141;
    n.hbm_bandwidth_gbps = 4800.5;
    n.hbm_efficiency = 0.87;
    s.config.software.hbm_reserved_gib = 2.75;
    s.config.software.hbm_allocator_margin = 0.0625;
    n.expanded = {480, 450.25, 0.75, ExpandedAttach::pooled, 4};
    n.scale_up = {72, 900, 0.25, 0.85};
    n.scale_out = {50, 7.5, 0.95, 16, 2.5, 1.25};
    s.config.cluster.nodes = 1234;
    s.config.training = {1536, Precision::fp8, Optimizer::sgd, GradDtype::bf16, AttentionKernel::fused, false};
    s.config.strategy = {4, 12, 7, 2, 3, Recompute::selective, true, 2, true, true, true, false, true, false};
    s.config.strategy.pp_overlap = false;  // both non-default, so the file carries them
    s.config.strategy.ep_dispatch = EpDispatch::hierarchical;
    n.power_kw = 10.2;
    s.cost = {2.25, 30000.5, 5, 1.15, 0.0875, 3e12};
    return s;
}

// Only the required keys.
const char* const minimal_json = R"({
  "format": "comet-scenario", "version": 1,
  "model": { "layers": 24, "hidden": 2048, "heads": 16, "ffn_hidden": 8192, "seq_len": 2048, "vocab": 50257 },
  "node": { "accelerators": 8, "matrix_fp16_tflops": 312, "vector_tflops": 78,
            "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": 2039,
            "scale_up": { "domain_size": 8, "bandwidth_gbps": 300 },
            "scale_out": { "bandwidth_gbps": 25 } },
  "cluster": { "nodes": 4 },
  "training": { "global_batch": 512 },
  "strategy": { "tp": 8, "pp": 1, "dp": 4, "microbatch": 1 }
})";

// minimal_json in the current format (4), with its software inline.
QByteArray minimal_v4_json() {
    QByteArray text(minimal_json);
    text.replace(R"("version": 1,)", R"("version": 4,)");
    text.replace(R"(  "strategy":)", R"(  "software": { "host_op_us": 20 },
  "strategy":)");
    return text;
}

Loaded<Scenario> parse(const QByteArray& text) {
    return parse_scenario(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), label().toStdString());
}

QStringList lines_of(const Loaded<Scenario>& l) {
    QStringList out;
    for (const auto& e : l.errors) out << QString::fromStdString(e);
    return out;
}

// ---- editing documents through QJson (key order does not matter to the reader) ----

QJsonObject object_of(const QByteArray& text) { return QJsonDocument::fromJson(text).object(); }
QByteArray text_of(const QJsonObject& o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

QJsonObject set_at(QJsonObject o, QStringList path, const QJsonValue& v) {
    const QString head = path.takeFirst();
    if (path.isEmpty()) {
        if (v.isUndefined())
            o.remove(head);
        else
            o.insert(head, v);
        return o;
    }
    o.insert(head, set_at(o.value(head).toObject(), path, v));
    return o;
}

QByteArray with(const QByteArray& text, const QString& path, const QJsonValue& v) {
    return text_of(set_at(object_of(text), path.split('.'), v));
}
QByteArray without(const QByteArray& text, const QString& path) { return with(text, path, QJsonValue(QJsonValue::Undefined)); }
// Puts raw JSON text at `path`, for numbers that QJson would reformat.
QByteArray with_raw(const QByteArray& text, const QString& path, const QByteArray& raw) {
    return with(text, path, QStringLiteral("@@RAW@@")).replace("\"@@RAW@@\"", raw);
}

void collect_paths(const QJsonObject& o, const QString& prefix, QStringList& leaves, QStringList& sections) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + '.' + it.key();
        if (it.value().isObject()) {
            sections << path;
            collect_paths(it.value().toObject(), path, leaves, sections);
        } else {
            leaves << path;
        }
    }
}

QByteArray full_text() { return QByteArray::fromStdString(scenario_to_json(full_scenario())); }

bool has_line_starting(const QStringList& lines, const QString& start) {
    for (const auto& l : lines)
        if (l.startsWith(start)) return true;
    return false;
}

QStringList dir_entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool write_file(const QString& path, const QByteArray& data) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// Exact comparison: QCOMPARE on doubles is fuzzy, and a round trip must be exact.
#define SAME(field)         \
    QVERIFY2(               \
        a.field == b.field, \
        qPrintable(         \
            QStringLiteral(#field ": %1 vs %2").arg(QVariant::fromValue(a.field).toString(), QVariant::fromValue(b.field).toString())))
#define SAME_STR(field) QCOMPARE(QString::fromStdString(a.field), QString::fromStdString(b.field))
#define SAME_ENUM(field) QCOMPARE(static_cast<int>(a.field), static_cast<int>(b.field))

void compare_scenarios(const Scenario& a, const Scenario& b) {
    SAME_STR(name);
    SAME_STR(description);
    SAME_STR(model_info.name);
    SAME_STR(model_info.source);
    SAME_STR(node_info.name);
    SAME_STR(node_info.source);
    // Every field of the registry, exactly (its getter gives each as a double: exact for every
    // integer a file may hold).
    for (const FieldDesc& f : all_fields()) {
        if (f.type == FieldType::list) continue;  // dlrmRoundTrips compares the lists
        QVERIFY2(f.get(a.config) == f.get(b.config), qPrintable(QStringLiteral("%1: %2 vs %3")
                                                                    .arg(QString::fromUtf8(f.path.data(), static_cast<int>(f.path.size())))
                                                                    .arg(f.get(a.config), 0, 'g', 17)
                                                                    .arg(f.get(b.config), 0, 'g', 17)));
    }
    SAME(cost.price_per_gpu_hour_usd);
    SAME(cost.purchase_price_per_gpu_usd);
    SAME(cost.lifetime_years);
    SAME(cost.pue);
    SAME(cost.price_per_kwh_usd);
    SAME(cost.tokens_to_train);
    SAME(baseline_design);
    QCOMPARE(a.designs.size(), b.designs.size());
    for (std::size_t i = 0; i < a.designs.size(); ++i) {
        SAME_STR(designs[i].name);
        SAME_STR(designs[i].node_info.name);
        SAME(designs[i].nodes);
        SAME(designs[i].price_per_gpu_hour_usd);
        SAME(designs[i].purchase_price_per_gpu_usd);
        SAME(designs[i].best_strategy);
        SAME(designs[i].node.hbm_capacity_gib);
        SAME(designs[i].node.power_kw);
        SAME(designs[i].node.scale_out.bandwidth_gbps);
        if (!a.designs[i].best_strategy) {
            SAME(designs[i].strategy.tp);
            SAME(designs[i].strategy.pp);
            SAME(designs[i].strategy.dp);
            SAME(designs[i].strategy.microbatch);
            SAME_ENUM(designs[i].strategy.recompute);
        }
    }
}

// minimal_json with a comparison section of two designs: one by preset name with the best
// strategy, one embedded with a fixed strategy.
QByteArray with_designs(const char* extra_design = "") {
    QByteArray text(minimal_json);
    text.chop(1);  // the closing brace
    text += R"(, "cost": { "price_per_gpu_hour_usd": 2.5, "pue": 1.3, "tokens_to_train": 1e12 },
  "comparison": { "baseline": 1, "designs": [
    { "name": "H100 x4", "node": "dgx-h100", "nodes": 4, "strategy": "best", "price_per_gpu_hour_usd": 3.5 },
    { "name": "fixed", "node": { "accelerators": 8, "matrix_fp16_tflops": 312, "vector_tflops": 78,
        "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": 2039, "power_kw": 6.5,
        "scale_up": { "domain_size": 8, "bandwidth_gbps": 300 }, "scale_out": { "bandwidth_gbps": 25 } },
      "nodes": 2, "strategy": { "tp": 8, "pp": 1, "dp": 2, "microbatch": 2 } })";
    text += extra_design;
    text += "]}}";
    return text;
}

// Every failure must be reported, never thrown, and every line must name the file.
void expect_failure(const Loaded<Scenario>& l) {
    QVERIFY(!l.ok());
    QVERIFY(!l.value.has_value());
    QVERIFY(!l.errors.empty());
    for (const auto& line : lines_of(l)) {
        QVERIFY2(line.startsWith(label() + ": "), qPrintable(line));
        QVERIFY2(!line.contains('\n'), qPrintable(line));
        QVERIFY2(line.size() < 2000, "message is not bounded");
    }
}

}  // namespace

// Values to try for a field other than `now`, all inside its range: for switches the other one,
// for enumerations the next, for numbers a few inside the range.
std::vector<double> other_values(const FieldDesc& f, double now) {
    if (f.type == FieldType::boolean) return {now != 0 ? 0.0 : 1.0};
    if (f.type == FieldType::choice) return {std::fmod(now + 1, f.max + 1), std::fmod(now + 2, f.max + 1)};
    const double lo = f.min_exclusive ? f.min + 1e-3 : f.min;
    std::vector<double> out{now + 1, now * 2, now - 1, lo, f.max, (lo + f.max) / 2, now / 2, now * 1.5 + 0.125};
    if (f.type == FieldType::real) out.insert(out.begin(), {now * 0.75 + 0.0625 * (f.max - lo), lo + (f.max - lo) * 0.3});
    std::vector<double> in;
    for (double v : out) {
        if (f.type == FieldType::integer) v = std::round(v);
        if (v >= lo && v <= f.max && v != now) in.push_back(v);
    }
    return in;
}

// full_scenario() with every conditional group on, so that a file writes each of its keys:
// experts, latent attention, a sliding window, multi-token prediction, an own attention model.
Scenario all_on_scenario() {
    Scenario s = full_scenario();
    ModelSpec& m = s.config.model;
    m.experts = 16;
    m.experts_per_token = 2;
    m.expert_ffn_hidden = 4096;
    m.shared_experts = 1;
    m.dense_layers = 2;
    m.moe_layer_interval = 2;
    m.capacity_factor = 1.25;
    m.q_lora_rank = 1536;
    m.kv_lora_rank = 512;
    m.qk_nope_head_dim = 128;
    m.qk_rope_head_dim = 64;
    m.v_head_dim = 128;
    m.sliding_window = 4096;
    m.full_attention_interval = 4;
    m.mtp_layers = 1;
    m.rope_mscale = 1.5;
    m.glu_clamp = 7;
    NodeSpec& n = s.config.node;
    n.attention = {0.625, 24, 0.75};
    n.gemm.fp8_max_fraction = 0.25;
    n.gemm.fp4_max_fraction = 0.125;
    n.matrix_fp4_tflops = 3957.8;
    s.config.software.host_op_us = 12.5;
    s.config.software.grouped_gemm = GroupedGemm::one_kernel;
    s.config.software.moe_host_sync = false;
    s.config.software.fused_attention = FusedAttention::flash2;
    n.attention_flash2 = {0.375, 18, 0.875, 512};
    n.attention.fill_keys = 96;
    n.gemm.sms = 132;
    n.gemm.max_split_k = 4;
    n.gemm.min_split_k_depth = 128;
    n.gemm.fp8_tile_overhead_k = 384;
    s.software_info = {"A test stack", "tests/core/test_scenario_io.cpp"};
    s.config.strategy.ep = 2;
    s.config.strategy.ep_overlap = 0.5;
    return s;
}

// A DLRM scenario from the shipped DCNv2 preset shape (for the DLRM's own fields).
Scenario dlrm_scenario() {
    Scenario s = full_scenario();
    switch_workload(s.config, Workload::dlrm);
    s.config.training.global_batch = 4096;
    s.config.strategy.dp = 8;
    return s;
}

class TestScenarioIo : public QObject {
    Q_OBJECT

private slots:
    void fullScenarioIsValid() { QVERIFY(check_config(full_scenario().config).empty()); }

    void roundTripThroughFile() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path file = dir.filePath("x.comet.json").toStdString();
        const Scenario original = full_scenario();
        QCOMPARE(QString::fromStdString(save_scenario_file(file, original)), QString());
        const Loaded<Scenario> loaded = load_scenario_file(file);
        QVERIFY2(loaded.ok(), loaded.error_text().c_str());
        compare_scenarios(*loaded.value, original);
        QCOMPARE(scenario_to_json(*loaded.value), scenario_to_json(original));
        QCOMPARE(dir_entries(dir.path()), QStringList{"x.comet.json"});
    }

    // Each field of the registry, set alone to another allowed value, survives a save and a load
    // exactly, and a file writes it whenever its value differs from the default (unless its key
    // is written only under a condition the value does not meet).
    void everyRegistryFieldRoundTrips() {
        QVERIFY(check_config(all_on_scenario().config).empty());
        QVERIFY(check_config(dlrm_scenario().config).empty());
        int checked = 0;
        for (const FieldDesc& f : all_fields()) {
            if (f.type == FieldType::list || f.path == "workload") continue;
            const QString path = QString::fromUtf8(f.path.data(), static_cast<int>(f.path.size()));
            Scenario s = f.for_workload(Workload::transformer) ? all_on_scenario() : dlrm_scenario();
            const double now = f.get(s.config);
            bool changed = false;
            for (const double v : other_values(f, now)) {
                Scenario t = s;
                f.set(t.config, v);
                if (f.get(t.config) == now || !check_config(t.config).empty()) continue;
                s = t;
                changed = true;
                break;
            }
            QVERIFY2(changed, qPrintable(path + ": no other allowed value found"));
            const Loaded<Scenario> loaded = parse_scenario(scenario_to_json(s), "x.comet.json");
            QVERIFY2(loaded.ok(), qPrintable(path + ": " + QString::fromStdString(loaded.error_text())));
            QVERIFY2(
                f.get(loaded.value->config) == f.get(s.config),
                qPrintable(
                    path +
                    QStringLiteral(": wrote %1, read %2").arg(f.get(s.config), 0, 'g', 17).arg(f.get(loaded.value->config), 0, 'g', 17)));
            ++checked;
        }
        QVERIFY(checked > 100);
    }

    // The name follows the content (issue 40): a change of model, node or node count renames the
    // scenario after its content and keeps the earlier study's description behind where it started;
    // an edit of anything else, or one that names the scenario itself, leaves the name.
    void nameFollowsTheContent() {
        const Loaded<Scenario> loaded = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
        QVERIFY(loaded.ok());
        const Scenario before = *loaded.value;
        QCOMPARE(content_name(before), std::string("Megatron 1T on 384 \u00d7 DGX A100 80GB"));
        const std::optional<ModelPreset> llama = find_model_preset("llama3-70b");
        const std::optional<NodePreset> gb300 = find_node_preset("gb300-nvl72");
        QVERIFY(llama && gb300);

        Scenario after = before;
        (void)apply_model_preset(after, *llama);
        after.config.cluster.nodes = 16;
        QVERIFY(follow_content(before, after));
        QCOMPARE(after.name, std::string("Llama 3 70B on 16 \u00d7 DGX A100 80GB"));
        QCOMPARE(after.description, "Started from \u201c" + before.name + "\u201d: " + before.description);
        Scenario again = after;
        (void)apply_node_preset(again, *gb300);  // a node's name up to its parenthesis
        QVERIFY(follow_content(after, again));
        QCOMPARE(again.name, std::string("Llama 3 70B on 16 \u00d7 GB300 NVL72"));
        QCOMPARE(again.description, after.description);  // it says where it started once

        Scenario other = before;  // a what-if on the node's numbers is the same study
        other.config.node.hbm_bandwidth_gbps *= 2;
        other.config.training.global_batch = 1536;
        QVERIFY(!follow_content(before, other));
        QCOMPARE(other.name, before.name);

        Scenario untitled = before;
        untitled.name.clear();
        untitled.description.clear();
        Scenario grown = untitled;
        grown.config.cluster.nodes = 768;
        QVERIFY(follow_content(untitled, grown));
        QCOMPARE(grown.name, std::string("Megatron 1T on 768 \u00d7 DGX A100 80GB"));
        QVERIFY(grown.description.empty());

        Scenario nameless = before;
        nameless.model_info.name.clear();
        nameless.node_info.name = " (no name)";
        QCOMPARE(content_name(nameless), std::string("custom model on 384 \u00d7 custom node"));
    }

    // One node, one price (issue 40): a price a file gives a design on the scenario's node moves to
    // the scenario when nothing else prices that node (the Cost page then shows the figure Compare
    // does); two different prices for the one node stay as written; set_node_price sets a node's
    // price in one place; a node preset takes the price a design already has for that node.
    void oneNodeHasOnePrice() {
        Scenario base = *parse(with_designs()).value;
        base.designs[1] = design_from_scenario(base, "same node", true);
        QVERIFY(on_scenario_node(base, base.designs[1]));
        QVERIFY(!on_scenario_node(base, base.designs[0]));
        const auto reload = [](const Scenario& s) {
            const Loaded<Scenario> l = parse_scenario(scenario_to_json(s), "x.comet.json");
            if (!l.ok()) qFatal("%s", l.error_text().c_str());
            return *l.value;
        };
        {  // the scenario has no price: the design's moves to it
            Scenario s = base;
            s.cost.price_per_gpu_hour_usd = 0;
            s.designs[1].price_per_gpu_hour_usd = 4;
            const Scenario back = reload(s);
            QCOMPARE(back.cost.price_per_gpu_hour_usd, 4.0);
            QCOMPARE(back.designs[1].price_per_gpu_hour_usd, 0.0);
            QCOMPARE(back.designs[0].price_per_gpu_hour_usd, 3.5);  // another node keeps its own
            QCOMPARE(design_cost(back.cost, back.designs[1]).price_per_gpu_hour_usd, 4.0);
        }
        {  // a purchase price moves the same way
            Scenario s = base;
            s.cost.price_per_gpu_hour_usd = 0;
            s.designs[1].purchase_price_per_gpu_usd = 20000;
            const Scenario back = reload(s);
            QCOMPARE(back.cost.purchase_price_per_gpu_usd, 20000.0);
            QCOMPARE(back.designs[1].purchase_price_per_gpu_usd, 0.0);
        }
        {  // the same price twice: one place
            Scenario s = base;
            s.designs[1].price_per_gpu_hour_usd = 2.5;
            const Scenario back = reload(s);
            QCOMPARE(back.cost.price_per_gpu_hour_usd, 2.5);
            QCOMPARE(back.designs[1].price_per_gpu_hour_usd, 0.0);
        }
        {  // two prices for the node: neither is dropped (the Compare cell says so)
            Scenario s = base;
            s.designs[1].price_per_gpu_hour_usd = 4;
            Scenario back = reload(s);
            QCOMPARE(back.cost.price_per_gpu_hour_usd, 2.5);
            QCOMPARE(back.designs[1].price_per_gpu_hour_usd, 4.0);
            s.cost.price_per_gpu_hour_usd = 0;
            s.designs[0] = design_from_scenario(base, "also same", true);
            s.designs[0].price_per_gpu_hour_usd = 5;
            back = reload(s);
            QCOMPARE(back.cost.price_per_gpu_hour_usd, 0.0);
            QCOMPARE(back.designs[0].price_per_gpu_hour_usd, 5.0);
            QCOMPARE(back.designs[1].price_per_gpu_hour_usd, 4.0);
            // Typing one price makes it the node's everywhere.
            QCOMPARE(set_node_price(back, back.config.node, 6, 0), 2);
            QCOMPARE(back.cost.price_per_gpu_hour_usd, 6.0);
            QCOMPARE(back.designs[0].price_per_gpu_hour_usd, 0.0);
            QCOMPARE(back.designs[1].price_per_gpu_hour_usd, 0.0);
        }
        {  // another node's price is every design's on that node, not the scenario's
            Scenario s = base;
            s.designs[1] = s.designs[0];
            s.designs[1].nodes = 8;
            QCOMPARE(set_node_price(s, s.designs[0].node, 2.49, 0), 2);
            QCOMPARE(s.designs[0].price_per_gpu_hour_usd, 2.49);
            QCOMPARE(s.designs[1].price_per_gpu_hour_usd, 2.49);
            QCOMPARE(s.cost.price_per_gpu_hour_usd, 2.5);
            QCOMPARE(set_node_price(s, s.designs[0].node, 0, 15625), 2);  // a purchase price replaces the hourly one
            QCOMPARE(s.designs[1].price_per_gpu_hour_usd, 0.0);
            QCOMPARE(s.designs[1].purchase_price_per_gpu_usd, 15625.0);
            QCOMPARE(set_node_price(s, s.designs[0].node, -3, std::nan("")), 2);  // hostile: no price, never negative
            QCOMPARE(s.designs[1].price_per_gpu_hour_usd, 0.0);
            QCOMPARE(s.designs[1].purchase_price_per_gpu_usd, 0.0);
            // Moving the scenario onto that node takes the price the designs have for it.
            QCOMPARE(set_node_price(s, s.designs[0].node, 2.49, 0), 2);
            const std::optional<NodePreset> h100 = find_node_preset("dgx-h100");
            QVERIFY(h100 && h100->price && h100->price->price_per_gpu_hour_usd != 2.49);
            QCOMPARE(s.designs[0].node, h100->node);
            const std::vector<std::string> notes = apply_node_preset(s, *h100);
            QCOMPARE(s.cost.price_per_gpu_hour_usd, 2.49);
            QCOMPARE(s.designs[0].price_per_gpu_hour_usd, 0.0);
            QCOMPARE(s.designs[1].price_per_gpu_hour_usd, 0.0);
            bool named = false;
            for (const std::string& n : notes)
                named = named || (n.starts_with("price") && n.find("$2.49") != std::string::npos && n.find("H100 x4") != std::string::npos);
            QVERIFY2(named, notes.empty() ? "no notes" : notes.front().c_str());
        }
    }

    // The explorer's view (issue 40 item 5) is saved with the file and read back as written; a
    // file without one has none; every hostile value names the key and what is allowed.
    void viewRoundTripsAndHostileViewsAreRefused() {
        const auto with_view = [](const char* view) {
            QByteArray text(minimal_json);
            text.chop(1);
            return text + ", \"view\": " + view + "}";
        };
        Scenario s = *parse(QByteArray(minimal_json)).value;
        QVERIFY(!s.view.has_value());
        QVERIFY(scenario_to_json(s).find("\"view\"") == std::string::npos);
        ExplorerView v;
        v.x = "tp";
        v.y = "hbm_gbps";
        v.metric = "mfu";
        v.search = false;
        v.steps = 17;
        v.relative = true;                         // the difference view (issue 40 item 8)
        v.x_range = std::array<double, 2>{1, 16};  // the user's axis ranges (issue 40 item 8)
        v.y_range = std::array<double, 2>{1000.5, 1e4};
        v.pins = {{2, 3350.5}, {8, 1.0 / 3}};
        v.page = "analysis";
        s.view = v;
        const Loaded<Scenario> back = parse(QByteArray::fromStdString(scenario_to_json(s)));
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(back.value->view.has_value());
        QVERIFY(*back.value->view == v);  // pins to the last digit
        for (std::string_view id : view_metric_ids()) QVERIFY(!id.empty());
        QCOMPARE(view_page_ids().size(), std::size_t{4});
        const Loaded<Scenario> partial = parse(with_view(R"({"metric": "hbm_use"})"));
        QVERIFY2(partial.ok(), partial.error_text().c_str());
        QCOMPARE(partial.value->view->metric, std::string("hbm_use"));
        QCOMPARE(partial.value->view->x, ExplorerView{}.x);  // the rest as a new window shows it
        QVERIFY(!partial.value->view->relative);
        // The difference view is written only when on: a file saved without it keeps its bytes.
        Scenario absolute = s;
        absolute.view->relative = false;
        QVERIFY(scenario_to_json(absolute).find("\"relative\"") == std::string::npos);
        absolute.view->x_range.reset();
        absolute.view->y_range.reset();
        QVERIFY(scenario_to_json(absolute).find("_range") == std::string::npos);
        QVERIFY(!partial.value->view->x_range.has_value());
        QVERIFY(scenario_to_json(s).find("\"relative\": true") != std::string::npos);
        for (const char* cost : {"cost_per_million_tokens", "time_to_train"}) {  // the cost colourings (issue 40)
            const std::string view = std::string("{\"metric\": \"") + cost + "\"}";
            const Loaded<Scenario> priced = parse(with_view(view.c_str()));
            QVERIFY2(priced.ok(), priced.error_text().c_str());
            QCOMPARE(priced.value->view->metric, std::string(cost));
        }
        const std::vector<std::pair<const char*, QString>> hostile{
            {"5", QStringLiteral("view: expected an object")},
            {R"({"x": "warp_speed"})", QStringLiteral("view.x = \"warp_speed\": must be one of")},
            {R"({"y": 3})", QStringLiteral("view.y: expected a string")},
            {R"({"metric": "beauty"})", QStringLiteral("view.metric = \"beauty\": must be one of iteration_time")},
            {R"({"metric": "cost_per_million"})", QStringLiteral("cost_per_million_tokens, time_to_train")},
            {R"({"metric": "Time_To_Train"})", QStringLiteral("view.metric = \"Time_To_Train\": must be one of")},
            {R"({"search": "yes"})", QStringLiteral("view.search")},
            {R"({"relative": "yes"})", QStringLiteral("view.relative: expected true or false")},
            {R"({"relative": 1})", QStringLiteral("view.relative: expected true or false")},
            {R"({"relative": null})", QStringLiteral("view.relative")},
            {R"({"x_range": [5, 1]})", QStringLiteral("view.x_range = [5,1]: must be [from, to]: two finite numbers, from below to")},
            {R"({"x_range": [3, 3]})", QStringLiteral("view.x_range = [3,3]: must be [from, to]")},
            {R"({"y_range": [1]})", QStringLiteral("view.y_range = [1]: must be [from, to]")},
            {R"({"y_range": [1, null]})", QStringLiteral("view.y_range = ")},
            {R"({"x_range": "wide"})", QStringLiteral("view.x_range = ")},
            {R"({"x_range": [1, 2, 3]})", QStringLiteral("view.x_range = ")},
            {R"({"steps": 4})", QStringLiteral("view.steps = 4: must be an odd number from 3 to 129")},
            {R"({"steps": 1})", QStringLiteral("view.steps = 1: must be an odd number from 3 to 129")},
            {R"({"steps": 1e12})", QStringLiteral("view.steps")},
            {R"({"steps": -33})", QStringLiteral("view.steps")},
            {R"({"pins": [[1,2],[1,2],[1,2],[1,2],[1,2]]})", QStringLiteral("must be a list of at most 4 [x, y] pairs")},
            {R"({"pins": {"x": 1}})", QStringLiteral("view.pins = ")},
            {R"({"pins": [[1]]})", QStringLiteral("view.pins[0] = ")},
            {R"({"pins": [[1, "a"]]})", QStringLiteral("view.pins[0] = ")},
            {R"({"pins": [null]})", QStringLiteral("view.pins[0] = ")},
            {R"({"page": "bank"})", QStringLiteral("view.page = \"bank\": must be one of explore, compare, analysis, fsdp")},
            {R"({"zoom": 2})", QStringLiteral("view.zoom")},
        };
        for (const auto& [view, message] : hostile) {
            const Loaded<Scenario> l = parse(with_view(view));
            expect_failure(l);
            QVERIFY2(QString::fromStdString(l.error_text()).contains(message),
                     qPrintable(QString::fromUtf8(view) + " -> " + QString::fromStdString(l.error_text())));
        }
    }

    void comparisonAndCostRoundTrip() {
        const Loaded<Scenario> l = parse(with_designs());
        QVERIFY2(l.ok(), l.error_text().c_str());
        const Scenario& sc = *l.value;
        QCOMPARE(sc.designs.size(), std::size_t{2});
        QCOMPARE(sc.baseline_design, 1);
        QCOMPARE(sc.cost.price_per_gpu_hour_usd, 2.5);
        QCOMPARE(sc.cost.pue, 1.3);
        QCOMPARE(sc.cost.tokens_to_train, 1e12);
        QCOMPARE(sc.cost.price_per_kwh_usd, CostInputs{}.price_per_kwh_usd);  // left out: default
        const Design& h = sc.designs[0];
        QVERIFY(h.best_strategy);
        QCOMPARE(h.node_info.name, std::string("DGX H100"));
        QCOMPARE(h.node.matrix_fp16_tflops, 989.0);
        QVERIFY(h.node.power_kw > 10);  // the preset's power
        QCOMPARE(h.price_per_gpu_hour_usd, 3.5);
        QCOMPARE(design_cost(sc.cost, h).price_per_gpu_hour_usd, 3.5);
        QCOMPARE(design_cost(sc.cost, sc.designs[1]).price_per_gpu_hour_usd, 2.5);  // the scenario's
        // A design's own purchase price wins over the scenario's hourly price (which cost_report
        // would otherwise prefer); its own hourly price wins over both.
        Design bought = sc.designs[1];
        bought.purchase_price_per_gpu_usd = 15625;
        QCOMPARE(design_cost(sc.cost, bought).price_per_gpu_hour_usd, 0.0);
        QCOMPARE(design_cost(sc.cost, bought).purchase_price_per_gpu_usd, 15625.0);
        bought.price_per_gpu_hour_usd = 4;
        QCOMPARE(design_cost(sc.cost, bought).price_per_gpu_hour_usd, 4.0);
        {  // and it survives a save
            Scenario copy = sc;
            copy.designs[1].purchase_price_per_gpu_usd = 15625;
            const Loaded<Scenario> back = parse(QByteArray::fromStdString(scenario_to_json(copy)));
            QVERIFY2(back.ok(), back.error_text().c_str());
            QCOMPARE(back.value->designs[1].purchase_price_per_gpu_usd, 15625.0);
            QCOMPARE(back.value->designs[0].purchase_price_per_gpu_usd, 0.0);
        }
        const Design& f = sc.designs[1];
        QVERIFY(!f.best_strategy);
        QCOMPARE(f.strategy.dp, 2);
        QCOMPARE(f.strategy.microbatch, 2);
        QCOMPARE(f.node.power_kw, 6.5);
        // Saved and read back: equal, and the preset reference is written out in full.
        const std::string text = scenario_to_json(sc);
        QVERIFY(text.find("\"strategy\": \"best\"") != std::string::npos);
        const Loaded<Scenario> again = parse(QByteArray::fromStdString(text));
        QVERIFY2(again.ok(), again.error_text().c_str());
        compare_scenarios(*again.value, sc);
        QCOMPARE(scenario_to_json(*again.value), text);
        // design_config: model and training from the scenario, the rest from the design.
        const Config c = design_config(sc.config, f);
        QCOMPARE(c.model.layers, sc.config.model.layers);
        QCOMPARE(c.training.global_batch, sc.config.training.global_batch);
        QCOMPARE(c.cluster.nodes, 2);
        QCOMPARE(c.strategy.dp, 2);
        const Config best = design_config(sc.config, h);
        QCOMPARE(static_cast<long long>(best.strategy.tp) * best.strategy.pp * best.strategy.dp, 32LL);
    }

    void comparisonErrorsNameTheKey() {
        const QString d = "comparison.designs";
        const struct {
            QByteArray text;
            QStringList expected;
        } cases[] = {
            {with(with_designs(), "comparison.baseline", 2),
             {label() + ": comparison.baseline = 2: must be the index of a design, 0 to 1"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "fastest"})"),
             {label() + ": " + d + "[2].strategy = \"fastest\": must be \"best\" or a strategy object"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h999", "nodes": 1, "strategy": "best"})"),
             {label() + ": " + d + "[2].node = \"dgx-h999\": no node preset of that name"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 0, "strategy": "best"})"),
             {label() + ": " + d + "[2].nodes = 0: must be an integer from 1 to 1e7"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "best", "colour": 1})"),
             {label() + ": " + d + "[2].colour: unknown key"}},
            {with_designs(R"(, 7)"), {label() + ": " + d + "[2]: expected a design object, got 7"}},
            {with_designs(R"(, {"name": "a", "node": "dgx-h100", "nodes": 1, "strategy": "best"},
                           {"name": "b", "node": "dgx-h100", "nodes": 1, "strategy": "best"},
                           {"name": "c", "node": "dgx-h100", "nodes": 1, "strategy": "best"})"),
             {label() + ": " + d + " = ", "must be a list of 1 to 4 designs"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "best", "price_per_gpu_hour_usd": -3})"),
             {label() + ": " + d + "[2].price_per_gpu_hour_usd = -3: must be at least 0 USD"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "best", "purchase_price_per_gpu_usd": -15625})"),
             {label() + ": " + d + "[2].purchase_price_per_gpu_usd = -15625: must be at least 0 USD"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "best", "purchase_price_per_gpu_usd": "15625"})"),
             {label() + ": " + d + "[2].purchase_price_per_gpu_usd", "expected a number"}},
            {with_designs(R"(, {"name": "z", "node": "dgx-h100", "nodes": 1, "strategy": "best", "purchase_price_per_gpu_usd": null})"),
             {label() + ": " + d + "[2].purchase_price_per_gpu_usd", "expected a number"}},
            {with(with_designs(), "cost.pue", 0.5), {label() + ": cost.pue = 0.5: must be at least 1"}},
            {with(minimal_json, "node.power_kw", -1), {label() + ": node.power_kw = -1: must be 0 (unknown) up to 10000 kW per node"}},
        };
        for (const auto& c : cases) {
            const Loaded<Scenario> l = parse(c.text);
            expect_failure(l);
            bool found = false;
            for (const QString& line : lines_of(l)) {
                bool all = true;
                for (const QString& part : c.expected) all = all && line.contains(part);
                found = found || all;
            }
            QVERIFY2(found, qPrintable(c.expected.join(" | ") + "\ngot:\n" + lines_of(l).join('\n')));
        }
    }

    void writesEveryKeyInDocumentedOrder() {
        const std::string text = scenario_to_json(Scenario{});
        QVERIFY(text.starts_with("{\n  \"format\": \"comet-scenario\",\n  \"version\": 4,\n  \"name\": \"\","));
        QVERIFY(text.ends_with("}\n"));
        const char* order[] = {"\"format\"",
                               "\"version\"",
                               "\"name\"",
                               "\"description\"",
                               "\"workload\"",
                               "\"model\"",
                               "\"layers\"",
                               "\"learned_position_embeddings\"",
                               "\"node\"",
                               "\"accelerators\"",
                               "\"gemm\"",
                               "\"max_fraction\"",
                               "\"tile_overhead_k\"",
                               "\"launch_overhead_us\"",
                               "\"hbm_capacity_gib\"",
                               "\"expanded\"",
                               "\"pool_nodes\"",
                               "\"scale_up\"",
                               "\"scale_out\"",
                               "\"cluster\"",
                               "\"training\"",
                               "\"dropout\"",
                               "\"cuda_graphs\"",
                               "\"software\"",
                               "\"host_op_us\"",
                               "\"grouped_gemm\"",
                               "\"moe_host_sync\"",
                               "\"fused_attention\"",
                               "\"graph_scope\"",
                               "\"strategy\"",
                               "\"tp\"",
                               "\"pp_scatter_gather\"",
                               "\"pp_overlap\"",
                               "\"cost\"",
                               "\"tokens_to_train\""};
        std::size_t last = 0;
        for (const char* key : order) {
            const std::size_t at = text.find(key, last);
            QVERIFY2(at != std::string::npos, key);
            last = at;
        }
        QStringList leaves, sections;
        collect_paths(object_of(QByteArray::fromStdString(text)), {}, leaves, sections);
        // The software section (name, source and 5 fields) joined the 74; the node's HBM reserve
        // became the software's, which is written where it is not the default.
        QCOMPARE(leaves.size(), 80);
        QCOMPARE(sections.size(), 11);
    }

    // A file of format 1 or 2 keeps its answer: its node's host_op_us becomes the software's, with
    // the one stack the model then knew, and a design whose node had another one gets its own.
    void formatTwoLoadsWithItsStack() {
        QByteArray old = with(minimal_json, "node.host_op_us", 45);
        const Loaded<Scenario> l = parse(old);
        QVERIFY2(l.ok(), l.error_text().c_str());
        SoftwareSpec expected = legacy_software(45);
        expected.hbm_reserved_gib = expected.hbm_allocator_margin = 0;  // its node had neither
        QCOMPARE(l.value->config.software, expected);
        QVERIFY(QString::fromStdString(l.value->software_info.name).contains("format-2"));
        // Its memory came from the node too, which the source says; the name already says whose stack it is.
        QVERIFY(!QString::fromStdString(l.value->software_info.name).contains("format-3"));
        QVERIFY(QString::fromStdString(l.value->software_info.source).contains("Its HBM reserve (0 GiB)"));
        QVERIFY(QString::fromStdString(l.value->software_info.source).contains("45 us"));
        // The same scenario written as format 4 reads back to the same configuration and answer.
        const std::string saved = scenario_to_json(*l.value);
        QVERIFY(saved.find("\"version\": 4") != std::string::npos);
        const Loaded<Scenario> again = parse_scenario(saved, "again.comet.json");
        QVERIFY2(again.ok(), again.error_text().c_str());
        QCOMPARE(again.value->config, l.value->config);
        QCOMPARE(evaluate(again.value->config).iteration_s, evaluate(l.value->config).iteration_s);
        // Without host_op_us the old node had none: the legacy stack with 0.
        const Loaded<Scenario> none = parse(QByteArray(minimal_json));
        QVERIFY2(none.ok(), none.error_text().c_str());
        QCOMPARE(none.value->config.software.host_op_us, 0.0);
        // A design whose node gave another host time keeps it as its own software.
        QByteArray designs = with_designs();
        designs.replace(R"("power_kw": 6.5,)", R"("power_kw": 6.5, "host_op_us": 10,)");
        designs = with(designs, "node.host_op_us", 45);
        const Loaded<Scenario> d = parse(designs);
        QVERIFY2(d.ok(), d.error_text().c_str());
        // The preset node of design 0 reserved 2 GiB and a 5 % margin then, the scenario's node
        // nothing: that design keeps the scenario's host time with its node's memory.
        QVERIFY(d.value->designs[0].own_software);
        QCOMPARE(d.value->designs[0].software.host_op_us, 45.0);
        QCOMPARE(d.value->designs[0].software.hbm_reserved_gib, 2.0);
        QCOMPARE(d.value->designs[0].software.hbm_allocator_margin, 0.05);
        QCOMPARE(d.value->config.software.hbm_reserved_gib, 0.0);
        QVERIFY(d.value->designs[1].own_software);
        QCOMPARE(d.value->designs[1].software.host_op_us, 10.0);
        QCOMPARE(design_config(d.value->config, d.value->designs[1]).software.host_op_us, 10.0);
        QCOMPARE(design_config(d.value->config, d.value->designs[0]).software.host_op_us, 45.0);
    }

    // A file of format 1 to 3 keeps its answer: the HBM its node reserved and the allocator margin
    // it gave become its software's; a node preset it names gives what every shipped preset held
    // then (2 GiB, 5 %); a design whose node reserved otherwise gets its own software. Written
    // back as format 4 it reads to the same configuration; in format 4 a named software preset
    // gives its own values.
    void formatThreeKeepsItsNodesMemory() {
        QByteArray v3 = with(with(with(minimal_v4_json(), "version", 3), "node.hbm_reserved_gib", 3), "node.hbm_allocator_margin", 0.04);
        v3 = with(v3, "software", "maxtext-xla");
        const Loaded<Scenario> l = parse(v3);
        QVERIFY2(l.ok(), l.error_text().c_str());
        const auto maxtext = find_software_preset("maxtext-xla");
        QVERIFY(maxtext.has_value());
        QCOMPARE(maxtext->software.hbm_reserved_gib, 1.25);
        QCOMPARE(maxtext->software.hbm_allocator_margin, 0.0);
        SoftwareSpec expected = maxtext->software;
        expected.hbm_reserved_gib = 3;
        expected.hbm_allocator_margin = 0.04;
        QCOMPARE(l.value->config.software, expected);
        QVERIFY(QString::fromStdString(l.value->software_info.name).contains("format-3 file's HBM reserve"));
        QVERIFY(QString::fromStdString(l.value->software_info.source).contains("(3 GiB)"));
        const std::string saved = scenario_to_json(*l.value);
        QVERIFY(saved.find("\"version\": 4") != std::string::npos);
        const Loaded<Scenario> again = parse_scenario(saved, "again.comet.json");
        QVERIFY2(again.ok(), again.error_text().c_str());
        QCOMPARE(again.value->config, l.value->config);
        QCOMPARE(evaluate(again.value->config).hbm.other_bytes, evaluate(l.value->config).hbm.other_bytes);
        QCOMPARE(evaluate(again.value->config).hbm.margin_bytes, evaluate(l.value->config).hbm.margin_bytes);
        // The same file in format 4 (without the node's keys) prices MaxText's own reserve.
        const Loaded<Scenario> v4 = parse(with(minimal_v4_json(), "software", "maxtext-xla"));
        QVERIFY2(v4.ok(), v4.error_text().c_str());
        QCOMPARE(v4.value->config.software, maxtext->software);
        QCOMPARE(v4.value->software_info.name, maxtext->info.name);
        // A named node preset in format 3 reserves what the shipped presets held then.
        const Loaded<Scenario> named =
            parse(with(with(with(minimal_v4_json(), "version", 3), "node", "dgx-h100"), "software", "megatron-core-te-eager"));
        QVERIFY2(named.ok(), named.error_text().c_str());
        QCOMPARE(named.value->config.software.hbm_reserved_gib, 2.0);
        QCOMPARE(named.value->config.software.hbm_allocator_margin, 0.05);
        QCOMPARE(named.value->config.software, find_software_preset("megatron-core-te-eager")->software);
        // A design whose node reserved more gets its own software; one on a preset keeps the scenario's.
        QByteArray designs = with_designs();
        designs.replace(R"("power_kw": 6.5,)", R"("power_kw": 6.5, "hbm_reserved_gib": 6,)");
        designs = with(with(designs, "version", 3), "software", QJsonObject{{"host_op_us", 0}});
        designs = with(designs, "node.hbm_reserved_gib", 2);
        designs = with(designs, "node.hbm_allocator_margin", 0.05);
        const Loaded<Scenario> d = parse(designs);
        QVERIFY2(d.ok(), d.error_text().c_str());
        QCOMPARE(d.value->config.software.hbm_reserved_gib, 2.0);
        QVERIFY(d.value->designs[1].own_software);
        QCOMPARE(d.value->designs[1].software.hbm_reserved_gib, 6.0);
        QCOMPARE(d.value->designs[1].software.hbm_allocator_margin, 0.0);  // that node gave no margin
        QCOMPARE(design_config(d.value->config, d.value->designs[1]).software.hbm_reserved_gib, 6.0);
    }

    // Format 3: a preset by name, an inline object, and a design's own software.
    void softwareByPresetOrInline() {
        QByteArray text = with(minimal_v4_json(), "software", "torchtitan-fsdp2");
        const Loaded<Scenario> named = parse(text);
        QVERIFY2(named.ok(), named.error_text().c_str());
        const auto preset = find_software_preset("torchtitan-fsdp2");
        QVERIFY(preset.has_value());
        QCOMPARE(named.value->config.software, preset->software);
        QCOMPARE(named.value->software_info.name, preset->info.name);
        const Loaded<Scenario> byAlias = parse(with(minimal_v4_json(), "software", "torchtitan"));
        QVERIFY2(byAlias.ok(), byAlias.error_text().c_str());
        QCOMPARE(byAlias.value->config.software, preset->software);
        const Loaded<Scenario> inline_sw = parse(minimal_v4_json());
        QVERIFY2(inline_sw.ok(), inline_sw.error_text().c_str());
        QCOMPARE(inline_sw.value->config.software.host_op_us, 20.0);
        QCOMPARE(inline_sw.value->config.software.grouped_gemm, GroupedGemm::per_expert);
        QCOMPARE(inline_sw.value->config.software.moe_host_sync, true);
    }

    void minimalFileUsesDefaults() {
        const Loaded<Scenario> l = parse(minimal_json);
        QVERIFY2(l.ok(), l.error_text().c_str());
        const Config& c = l.value->config;
        const Config d;
        QCOMPARE(c.model.kv_heads, 16);
        QCOMPARE(c.model.head_dim, 128);
        QCOMPARE(c.model.gated_mlp, d.model.gated_mlp);
        QCOMPARE(c.model.tied_embeddings, d.model.tied_embeddings);
        QVERIFY(c.node.gemm.max_fraction == d.node.gemm.max_fraction);
        QVERIFY(c.node.hbm_efficiency == d.node.hbm_efficiency);
        QVERIFY(c.node.expanded.capacity_gib == d.node.expanded.capacity_gib);
        QCOMPARE(static_cast<int>(c.node.expanded.attach), static_cast<int>(d.node.expanded.attach));
        QVERIFY(c.node.scale_up.latency_us == d.node.scale_up.latency_us);
        QVERIFY(c.node.scale_out.efficiency == d.node.scale_out.efficiency);
        QCOMPARE(static_cast<int>(c.training.precision), static_cast<int>(d.training.precision));
        QCOMPARE(c.strategy.interleave, d.strategy.interleave);
        QCOMPARE(c.strategy.dp_overlap, d.strategy.dp_overlap);
        QVERIFY(l.value->name.empty() && l.value->description.empty());
        QVERIFY(l.value->model_info.name.empty() && l.value->node_info.source.empty());
    }

    void integralFloatsAreIntegers() {
        const Loaded<Scenario> l = parse(with_raw(minimal_json, "model.layers", "96.0"));
        QVERIFY2(l.ok(), l.error_text().c_str());
        QCOMPARE(l.value->config.model.layers, 96);
    }

    void errorMessages_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("expected");  // all in one line
        const QByteArray m = minimal_json;
        const QByteArray m3 = minimal_v4_json();
        const QString f = label() + ": ";

        QTest::newRow("range") << with(m, "node.hbm_bandwidth_gbps", -5)
                               << QStringList{f + "node.hbm_bandwidth_gbps = -5: must be > 0 and at most 1e7 GB/s"};
        QTest::newRow("leaf domains negative")
            << with(m, "node.scale_out.leaf_domains", -1)
            << QStringList{
                   f +
                   "node.scale_out.leaf_domains = -1: must be 0 (one non-blocking tier) or an integer up to 1e7 scale-up domains per leaf"};
        QTest::newRow("leaf domains fractional")
            << with(m, "node.scale_out.leaf_domains", 2.5) << QStringList{f + "node.scale_out.leaf_domains: expected an integer, got 2.5"};
        QTest::newRow("undersubscribed spine")
            << with(m, "node.scale_out.oversubscription", 0.5)
            << QStringList{f + "node.scale_out.oversubscription = 0.5: must be from 1 (non-blocking) to 64 (leaf downlink : spine uplink)"};
        QTest::newRow("oversubscription as ratio text")
            << with(m, "node.scale_out.oversubscription", "2:1")
            << QStringList{f + "node.scale_out.oversubscription: expected a number, got string \"2:1\""};
        QTest::newRow("spine latency negative") << with(m, "node.scale_out.spine_latency_us", -3)
                                                << QStringList{f + "node.scale_out.spine_latency_us = -3: must be 0 to 1e6 us"};
        QTest::newRow("zero bandwidth") << with(m, "node.scale_out.bandwidth_gbps", 0)
                                        << QStringList{f + "node.scale_out.bandwidth_gbps = 0: must be > 0"};
        QTest::newRow("negative zero") << with_raw(m, "node.scale_up.bandwidth_gbps", "-0.0")
                                       << QStringList{f + "node.scale_up.bandwidth_gbps = ", ": must be > 0"};
        QTest::newRow("zero stage") << with(m, "strategy.zero_stage", 4)
                                    << QStringList{f + "strategy.zero_stage = 4: must be 0, 1, 2 or 3"};
        QTest::newRow("int as string") << with(m, "model.layers", "many")
                                       << QStringList{f + "model.layers: expected an integer, got string \"many\""};
        QTest::newRow("int fractional") << with_raw(m, "model.layers", "1.5")
                                        << QStringList{f + "model.layers: expected an integer, got 1.5"};
        QTest::newRow("int huge float") << with_raw(m, "model.layers", "1e300")
                                        << QStringList{f + "model.layers: expected an integer, got 1e+300 (out of range)",
                                                       "must be an integer from 1 to 100000"};
        QTest::newRow("int beyond int") << with_raw(m, "model.layers", "3000000000")
                                        << QStringList{f + "model.layers: expected an integer, got 3000000000 (out of range)"};
        QTest::newRow("int beyond int64") << with_raw(m, "training.global_batch", "18446744073709551615")
                                          << QStringList{
                                                 f + "training.global_batch: expected an integer, got 18446744073709551615 (out of range)"};
        QTest::newRow("int 2^63 float") << with_raw(m, "training.global_batch", "9.223372036854775808e18")
                                        << QStringList{f + "training.global_batch: expected an integer, got", "(out of range)"};
        QTest::newRow("int -1e19") << with_raw(m, "training.global_batch", "-1e19")
                                   << QStringList{f + "training.global_batch: expected an integer, got -1e+19 (out of range)"};
        QTest::newRow("int null") << with(m, "model.layers", QJsonValue::Null)
                                  << QStringList{f + "model.layers: expected an integer, got null"};
        QTest::newRow("unknown key near") << with(m, "model.laers", 5)
                                          << QStringList{f + "model.laers: unknown key (did you mean \"layers\"?)"};
        QTest::newRow("unknown key case") << with(m, "strategy.TP", 5)
                                          << QStringList{f + "strategy.TP: unknown key (did you mean \"tp\"?)"};
        QTest::newRow("unknown key far") << with(m, "node.zzzzqq", 5)
                                         << QStringList{f + "node.zzzzqq: unknown key (allowed keys: name, source, "
                                                            "accelerators, matrix_fp16_tflops,",
                                                        "power_kw)"};
        QTest::newRow("unknown top key") << with(m, "modle", QJsonObject{})
                                         << QStringList{f + "modle: unknown key (did you mean \"model\"?)"};
        QTest::newRow("odd unknown key") << with(m, "cluster.a\"b\nc", 1) << QStringList{f + "cluster.\"a\\\"b\\nc\": unknown key"};
        QTest::newRow("missing required") << without(m, "strategy.tp") << QStringList{f + "strategy.tp: missing (required)"};
        QTest::newRow("missing section") << without(m, "cluster") << QStringList{f + "cluster: missing (required)"};
        QTest::newRow("enum") << with(m, "training.precision", "fp12")
                              << QStringList{f + "training.precision = \"fp12\": must be one of fp16, bf16, fp8, mxfp8, fp4"};
        QTest::newRow("enum optimizer") << with(m, "training.optimizer", "adamw")
                                        << QStringList{f + "training.optimizer = \"adamw\": must be one of adam, sgd"};
        QTest::newRow("enum grad_reduce") << with(m, "training.grad_reduce", "fp16")
                                          << QStringList{f + "training.grad_reduce = \"fp16\": must be one of fp32, bf16"};
        QTest::newRow("enum attention") << with(m, "training.attention", "flash")
                                        << QStringList{f + "training.attention = \"flash\": must be one of unfused, fused"};
        QTest::newRow("enum recompute") << with(m, "strategy.recompute", "partial")
                                        << QStringList{f +
                                                       "strategy.recompute = \"partial\": must be one of none, "
                                                       "selective, full"};
        QTest::newRow("experts negative") << with(m, "model.experts", -8)
                                          << QStringList{f + "model.experts = -8: must be 0 (a dense model)"};
        QTest::newRow("ep_overlap above 1") << with(m, "strategy.ep_overlap", 1.5)
                                            << QStringList{f + "strategy.ep_overlap = 1.5: must be a fraction from 0"};
        QTest::newRow("cp zero") << with(m, "strategy.cp", 0) << QStringList{f + "strategy.cp = 0: must be an integer from 1"};
        QTest::newRow("cp text") << with(m, "strategy.cp", "four")
                                 << QStringList{f + "strategy.cp: expected an integer, got string \"four\""};
        QTest::newRow("zero_shard negative") << with(m, "strategy.zero_shard", -2)
                                             << QStringList{f + "strategy.zero_shard = -2: must be 0 (the whole dp x cp group)"};
        QTest::newRow("capacity factor zero") << with(m, "model.capacity_factor", 0)
                                              << QStringList{f + "model.capacity_factor = 0: must be > 0 and at most 64"};
        QTest::newRow("top-k above experts") << with(with(with(m, "model.experts", 8), "model.expert_ffn_hidden", 1024),
                                                     "model.experts_per_token", 9)
                                             << QStringList{f +
                                                            "model.experts_per_token = 9: must be an integer from 1 to model.experts (8)"};
        QTest::newRow("enum attach") << with(m, "node.expanded.attach", "shared")
                                     << QStringList{f +
                                                    "node.expanded.attach = \"shared\": must be one of "
                                                    "per_accelerator, per_node, pooled"};
        QTest::newRow("enum wrong type") << with(m, "training.precision", 16)
                                         << QStringList{f +
                                                        "training.precision: expected a string (one of fp16, "
                                                        "bf16, fp8, mxfp8, fp4), got 16"};
        // The keys of uneven pipelines, modern attention, FP8 and host-bound kernels.
        QTest::newRow("first stage layers negative") << with(m, "strategy.pipeline_first_layers", -3)
                                                     << QStringList{f + "strategy.pipeline_first_layers = -3: must be 0 (automatic)"};
        QTest::newRow("last stage layers text")
            << with(m, "strategy.pipeline_last_layers", "few")
            << QStringList{f + "strategy.pipeline_last_layers: expected an integer, got string \"few\""};
        QTest::newRow("embedding split not bool") << with(m, "strategy.embedding_in_pipeline_split", 1)
                                                  << QStringList{f + "strategy.embedding_in_pipeline_split: expected true or false, got 1"};
        QTest::newRow("recompute layers negative")
            << with(m, "strategy.recompute_layers", -1) << QStringList{f + "strategy.recompute_layers = -1: must be 0 (every layer)"};
        QTest::newRow("sliding window negative")
            << with(m, "model.sliding_window", -128) << QStringList{f + "model.sliding_window = -128: must be 0 (full attention)"};
        QTest::newRow("kv lora rank huge") << with(m, "model.kv_lora_rank", 1e12) << QStringList{f + "model.kv_lora_rank"};
        QTest::newRow("mla without value heads") << with(with(m, "model.kv_lora_rank", 512), "model.v_head_dim", 0)
                                                 << QStringList{f + "model.v_head_dim = 0: must be at least 1"};
        QTest::newRow("attention fraction zero") << with(m, "node.attention.max_fraction", 0)
                                                 << QStringList{f + "node.attention.max_fraction = 0: must be a fraction > 0 and <= 1"};
        QTest::newRow("attention unknown key") << with(m, "node.attention.softmax", 32)
                                               << QStringList{f + "node.attention.softmax: unknown key"};
        QTest::newRow("fp8 fraction above 1") << with(m, "node.gemm.fp8_max_fraction", 1.2)
                                              << QStringList{f + "node.gemm.fp8_max_fraction = 1.2: must be 0 (as node.gemm.max_fraction)"};
        QTest::newRow("ep dispatch unknown") << with(m, "strategy.ep_dispatch", "deepep")
                                             << QStringList{f +
                                                            "strategy.ep_dispatch = \"deepep\": must be one of all_to_all, hierarchical"};
        QTest::newRow("ep dispatch as number") << with(m, "strategy.ep_dispatch", 1) << QStringList{f + "strategy.ep_dispatch"};
        QTest::newRow("pp overlap as text") << with(m, "strategy.pp_overlap", "on")
                                            << QStringList{f + "strategy.pp_overlap: expected true or false"};
        QTest::newRow("pp overlap as number") << with(m, "strategy.pp_overlap", 0)
                                              << QStringList{f + "strategy.pp_overlap: expected true or false"};
        QTest::newRow("pp overlap as null") << with(m, "strategy.pp_overlap", QJsonValue::Null)
                                            << QStringList{f + "strategy.pp_overlap: expected true or false"};
        QTest::newRow("cuda graphs as text") << with(m, "training.cuda_graphs", "yes")
                                             << QStringList{f + "training.cuda_graphs: expected true or false, got string \"yes\""};
        QTest::newRow("cuda graphs as number") << with(m, "training.cuda_graphs", 1)
                                               << QStringList{f + "training.cuda_graphs: expected true or false, got 1"};
        QTest::newRow("cuda graphs as null") << with(m, "training.cuda_graphs", QJsonValue::Null)
                                             << QStringList{f + "training.cuda_graphs: expected true or false"};
        QTest::newRow("rail only as text") << with(m, "node.scale_out.rail_only", "yes")
                                           << QStringList{f + "node.scale_out.rail_only: expected true or false"};
        QTest::newRow("rail only as number") << with(m, "node.scale_out.rail_only", 1)
                                             << QStringList{f + "node.scale_out.rail_only: expected true or false"};
        QTest::newRow("mtp negative") << with(m, "model.mtp_layers", -1)
                                      << QStringList{f +
                                                     "model.mtp_layers = -1: must be 0 (no multi-token prediction) or an integer up to 16"};
        QTest::newRow("mtp too many") << with(m, "model.mtp_layers", 17)
                                      << QStringList{f +
                                                     "model.mtp_layers = 17: must be 0 (no multi-token prediction) or an integer up to 16"};
        QTest::newRow("mtp fractional") << with(m, "model.mtp_layers", 1.5) << QStringList{f + "model.mtp_layers: expected an integer"};
        QTest::newRow("mtp as text") << with(m, "model.mtp_layers", "one") << QStringList{f + "model.mtp_layers: expected an integer"};
        QTest::newRow("rope_mscale zero") << with(m, "model.rope_mscale", 0)
                                          << QStringList{f + "model.rope_mscale = 0: must be > 0 and at most 100 (1 = plain RoPE)"};
        QTest::newRow("rope_mscale negative") << with(m, "model.rope_mscale", -1.3)
                                              << QStringList{f + "model.rope_mscale = -1.3: must be > 0 and at most 100 (1 = plain RoPE)"};
        QTest::newRow("rope_mscale huge") << with(m, "model.rope_mscale", 1e300)
                                          << QStringList{f + "model.rope_mscale = 1e+300: must be > 0 and at most 100 (1 = plain RoPE)"};
        QTest::newRow("rope_mscale as text") << with(m, "model.rope_mscale", "yarn")
                                             << QStringList{f + "model.rope_mscale: expected a number"};
        QTest::newRow("glu_clamp negative") << with(m, "model.glu_clamp", -7)
                                            << QStringList{f + "model.glu_clamp = -7: must be 0 (no clamp) or a limit up to 1e6"};
        QTest::newRow("glu_clamp huge") << with(m, "model.glu_clamp", 1e7)
                                        << QStringList{f + "model.glu_clamp = 10000000: must be 0 (no clamp) or a limit up to 1e6"};
        QTest::newRow("glu_clamp as text") << with(m, "model.glu_clamp", true) << QStringList{f + "model.glu_clamp: expected a number"};
        QTest::newRow("fp4 fraction above 1") << with(m, "node.gemm.fp4_max_fraction", 1.5)
                                              << QStringList{f +
                                                             "node.gemm.fp4_max_fraction = 1.5: must be 0 (as node.gemm.fp8_max_fraction)"};
        QTest::newRow("fp4 fraction negative") << with(m, "node.gemm.fp4_max_fraction", -0.1)
                                               << QStringList{f + "node.gemm.fp4_max_fraction = -0.1: must be 0"};
        QTest::newRow("fp4 peak negative") << with(m, "node.matrix_fp4_tflops", -5)
                                           << QStringList{f + "node.matrix_fp4_tflops = -5: must be 0 (no fp4) up to 1e7 TFLOP/s"};
        QTest::newRow("fp4 peak as text") << with(m, "node.matrix_fp4_tflops", "15 PF")
                                          << QStringList{f + "node.matrix_fp4_tflops: expected a number"};
        QTest::newRow("fp4 peak huge") << with(m, "node.matrix_fp4_tflops", 1e9)
                                       << QStringList{f + "node.matrix_fp4_tflops = 1000000000: must be 0 (no fp4) up to 1e7 TFLOP/s"};
        QTest::newRow("precision nvfp4 spelled")
            << with(m, "training.precision", "nvfp4")
            << QStringList{f + "training.precision = \"nvfp4\": must be one of fp16, bf16, fp8, mxfp8, fp4"};
        QTest::newRow("host op negative") << with(m3, "software.host_op_us", -1)
                                          << QStringList{f + "software.host_op_us = -1: must be 0 (the host keeps ahead)"};
        QTest::newRow("host op NaN text") << with(m3, "software.host_op_us", "NaN")
                                          << QStringList{f + "software.host_op_us: expected a number"};
        QTest::newRow("host op huge") << with(m3, "software.host_op_us", 1e300)
                                      << QStringList{f + "software.host_op_us = 1e+300: must be 0 (the host keeps ahead)"};
        QTest::newRow("host op on the node") << with(m3, "node.host_op_us", 45)
                                             << QStringList{f +
                                                            "node.host_op_us: is the software's, not the node's, since scenario "
                                                            "format 3"};
        QTest::newRow("grouped gemm unknown") << with(m3, "software.grouped_gemm", "cutlass")
                                              << QStringList{f +
                                                             "software.grouped_gemm = \"cutlass\": must be one of per_expert, one_kernel"};
        QTest::newRow("moe sync as text") << with(m3, "software.moe_host_sync", "yes")
                                          << QStringList{f + "software.moe_host_sync: expected true or false"};
        QTest::newRow("attention kernel unknown")
            << with(m3, "software.fused_attention", "flash3")
            << QStringList{f + "software.fused_attention = \"flash3\": must be one of vendor, flash2"};
        QTest::newRow("graph scope unknown") << with(m3, "software.graph_scope", "partial")
                                             << QStringList{f + "software.graph_scope = \"partial\": must be one of none, dense, full"};
        QTest::newRow("graph scope as number") << with(m3, "software.graph_scope", 1) << QStringList{f + "software.graph_scope: expected"};
        QTest::newRow("graph scope as bool") << with(m3, "software.graph_scope", true) << QStringList{f + "software.graph_scope: expected"};
        QTest::newRow("attention kernel as number")
            << with(m3, "software.fused_attention", 2) << QStringList{f + "software.fused_attention: expected"};
        QTest::newRow("weight bytes zero") << with(m3, "software.weight_bytes", 0)
                                           << QStringList{f + "software.weight_bytes = 0: must be 1 to 4 bytes per parameter"};
        QTest::newRow("weight bytes fp64") << with(m3, "software.weight_bytes", 8)
                                           << QStringList{f + "software.weight_bytes = 8: must be 1 to 4 bytes per parameter"};
        QTest::newRow("weight bytes as text") << with(m3, "software.weight_bytes", "fp32")
                                              << QStringList{f + "software.weight_bytes: expected a number"};
        QTest::newRow("master weights as text")
            << with(m3, "software.master_weights", "fp32") << QStringList{f + "software.master_weights: expected true or false"};
        QTest::newRow("moment bytes negative") << with(m3, "software.moment_bytes", -2)
                                               << QStringList{f + "software.moment_bytes = -2: must be 0 to 8 bytes per moment"};
        QTest::newRow("moment bytes huge") << with(m3, "software.moment_bytes", 1e300)
                                           << QStringList{f + "software.moment_bytes = 1e+300: must be 0 to 8 bytes per moment"};
        QTest::newRow("logits bytes negative") << with(m3, "software.logits_bytes", -6)
                                               << QStringList{f + "software.logits_bytes = -6: must be 0 (a chunked loss"};
        QTest::newRow("logits bytes huge") << with(m3, "software.logits_bytes", 64)
                                           << QStringList{f + "software.logits_bytes = 64: must be 0 (a chunked loss"};
        QTest::newRow("logits bytes null") << with(m3, "software.logits_bytes", QJsonValue())
                                           << QStringList{f + "software.logits_bytes: expected a number"};
        QTest::newRow("fa2 fraction above 1")
            << with(m3, "node.attention_flash2.max_fraction", 1.5)
            << QStringList{f + "node.attention_flash2.max_fraction = 1.5: must be 0 (as node.attention) or a fraction up to 1"};
        QTest::newRow("fa2 fraction negative") << with(m3, "node.attention_flash2.max_fraction", -0.4)
                                               << QStringList{f + "node.attention_flash2.max_fraction = -0.4: must be 0"};
        QTest::newRow("fa2 softmax huge") << with(m3, "node.attention_flash2.softmax_head_dim", 1e300)
                                          << QStringList{f + "node.attention_flash2.softmax_head_dim = 1e+300: must be 0 to 100000"};
        QTest::newRow("sms negative") << with(m, "node.gemm.sms", -132)
                                      << QStringList{f + "node.gemm.sms = -132: must be 0 (no waves) or an integer up to 1e6"};
        QTest::newRow("sms fractional") << with(m, "node.gemm.sms", 131.5)
                                        << QStringList{f + "node.gemm.sms: expected an integer, got 131.5"};
        QTest::newRow("sms as text") << with(m, "node.gemm.sms", "132")
                                     << QStringList{f + "node.gemm.sms: expected an integer, got string \"132\""};
        QTest::newRow("split-k zero") << with(m, "node.gemm.max_split_k", 0)
                                      << QStringList{f + "node.gemm.max_split_k = 0: must be an integer from 1 (never split) to 1024"};
        QTest::newRow("split-k huge") << with(m, "node.gemm.max_split_k", 1e9) << QStringList{f + "node.gemm.max_split_k"};
        QTest::newRow("split depth zero") << with(m, "node.gemm.min_split_k_depth", 0)
                                          << QStringList{f +
                                                         "node.gemm.min_split_k_depth = 0: must be 1 to 1e6 inner-loop steps per split"};
        QTest::newRow("fp8 tile fill negative")
            << with(m, "node.gemm.fp8_tile_overhead_k", -384)
            << QStringList{f + "node.gemm.fp8_tile_overhead_k = -384: must be 0 (as node.gemm.tile_overhead_k)"};
        QTest::newRow("attention fill below -1")
            << with(m, "node.attention.fill_keys", -2)
            << QStringList{f + "node.attention.fill_keys = -2: must be -1 (as node.gemm.tile_overhead_k) or 0 to 1e6 key positions"};
        QTest::newRow("fa2 fill huge") << with(m3, "node.attention_flash2.fill_keys", 1e300)
                                       << QStringList{f + "node.attention_flash2.fill_keys = 1e+300"};
        QTest::newRow("fa2 backward as text") << with(m3, "node.attention_flash2.backward_efficiency", "0.9")
                                              << QStringList{f + "node.attention_flash2.backward_efficiency: expected a number"};
        QTest::newRow("software unknown preset")
            << with(m3, "software", "megatron-9000")
            << QStringList{f + "software = \"megatron-9000\": no software preset of that name (known: "};
        QTest::newRow("software as number") << with(m3, "software", 3) << QStringList{f + "software: expected an object"};
        QTest::newRow("software unknown key") << with(m3, "software.host_op_ms", 3)
                                              << QStringList{f + "software.host_op_ms: unknown key (did you mean \"host_op_us\"?)"};
        QTest::newRow("software in format 1") << with(m, "software", "pytorch-eager")
                                              << QStringList{f + "software: needs format version 3 (this file says version 1)"};
        QTest::newRow("software missing") << without(m3, "software") << QStringList{f + "software: missing"};
        QTest::newRow("legacy host negative") << with(m, "node.host_op_us", -1)
                                              << QStringList{f + "node.host_op_us: is -1; must be 0 to 10000 us per kernel"};
        QTest::newRow("bool wrong type") << with(m, "model.gated_mlp", 1)
                                         << QStringList{f + "model.gated_mlp: expected true or false, got 1"};
        QTest::newRow("bool as string") << with(m, "strategy.dp_overlap", "true")
                                        << QStringList{f + "strategy.dp_overlap: expected true or false, got string \"true\""};
        QTest::newRow("NaN string") << with(m, "node.vector_tflops", "NaN")
                                    << QStringList{f + "node.vector_tflops: expected a number, got string \"NaN\""};
        QTest::newRow("inf string") << with(m, "node.scale_up.latency_us", "-Infinity")
                                    << QStringList{f + "node.scale_up.latency_us: expected a number, got string \"-Infinity\""};
        QTest::newRow("string wrong type") << with(m, "name", 5) << QStringList{f + "name: expected a string, got 5"};
        QTest::newRow("syntax error") << QByteArray("{\"format\": \"comet-scenario\",, }")
                                      << QStringList{f + "not valid JSON: ", "line 1, column 29", "(byte 29)"};
        QTest::newRow("NaN literal") << with_raw(m, "node.vector_tflops", "NaN") << QStringList{f + "not valid JSON: "};
        QTest::newRow("number overflow") << with_raw(m, "node.vector_tflops", "1e400") << QStringList{f + "not valid JSON: ", "1e400"};
        QTest::newRow("trailing garbage") << m + "x" << QStringList{f + "not valid JSON: "};
        QTest::newRow("comment") << "// hi\n" + m << QStringList{f + "not valid JSON: "};
        QTest::newRow("top level array") << QByteArray("[1, 2]")
                                         << QStringList{f + "expected a JSON object at the top level, got an array"};
        QTest::newRow("top level string") << QByteArray("\"comet\"")
                                          << QStringList{f + "expected a JSON object at the top level, got string \"comet\""};
        QTest::newRow("section not object") << with(m, "node", 5) << QStringList{f + "node: expected an object, got 5"};
        QTest::newRow("nested not object") << with(m, "node.gemm", QJsonArray{})
                                           << QStringList{f + "node.gemm: expected an object, got an array"};
        QTest::newRow("empty") << QByteArray() << QStringList{f + "is empty"};
        QTest::newRow("whitespace") << QByteArray(" \n\t\r\n") << QStringList{f + "contains only whitespace"};
        QTest::newRow("newer version") << with(m, "version", 7)
                                       << QStringList{f +
                                                      "version: file was written by a newer COMET Explorer (format version 7); this build "
                                                      "reads versions up to 4"};
        QTest::newRow("version zero") << with(m, "version", 0) << QStringList{f + "version = 0: must be a format version from 1 to 4"};
        QTest::newRow("version string") << with(m, "version", "1") << QStringList{f + "version: expected an integer, got string \"1\""};
        QTest::newRow("wrong format") << with(m, "format", "comet-sweep")
                                      << QStringList{f + "format = \"comet-sweep\": must be \"comet-scenario\""};
        QTest::newRow("missing format") << without(m, "format") << QStringList{f + "format: missing (required)"};
        QTest::newRow("duplicate key") << QByteArray(minimal_json).replace("\"layers\": 24", "\"layers\": 24, \"layers\": 25")
                                       << QStringList{f + "model.layers: duplicate key"};
        QTest::newRow("head_dim underivable") << with(with(m, "model.hidden", 100), "model.heads", 7)
                                              << QStringList{
                                                     f +
                                                     "model.head_dim: missing; required because model.hidden (100) is not divisible by "
                                                     "model.heads (7)"};
        QTest::newRow("derived head_dim out of range")
            << with(with(m, "model.hidden", 1048576), "model.heads", 1)
            << QStringList{f +
                           "model.head_dim = 1048576: must be an integer from 1 to 65536 (model.head_dim "
                           "defaults to model.hidden / model.heads)"};
        QTest::newRow("kv_heads not divisor") << with(m, "model.kv_heads", 3)
                                              << QStringList{f + "model.kv_heads = 3: must be a divisor of model.heads (16)"};
        // The runtime's reserve and the allocator's margin: the software's since format 4.
        const QByteArray m4 = with(with(m, "version", 4), "software", QJsonObject{{"host_op_us", 0}});
        QTest::newRow("reserved above capacity")
            << with(m4, "software.hbm_reserved_gib", 80)
            << QStringList{f +
                           "software.hbm_reserved_gib = 80: must be less than node.hbm_capacity_gib (80) less the "
                           "software's allocator margin (0.05 of it)"};
        QTest::newRow("margin above half")
            << with(m4, "software.hbm_allocator_margin", 0.6)
            << QStringList{f + "software.hbm_allocator_margin = 0.6: must be a fraction from 0 to 0.5 of node.hbm_capacity_gib"};
        QTest::newRow("margin negative")
            << with(m4, "software.hbm_allocator_margin", -0.01)
            << QStringList{f + "software.hbm_allocator_margin = -0.01: must be a fraction from 0 to 0.5 of node.hbm_capacity_gib"};
        QTest::newRow("nvls as text") << with(m4, "software.nvls", "on")
                                      << QStringList{f + "software.nvls: expected true or false, got string \"on\""};
        QTest::newRow("nvls as number") << with(m4, "software.nvls", 1) << QStringList{f + "software.nvls: expected true or false"};
        QTest::newRow("nvls on the node") << with(m4, "node.scale_up.nvls", true) << QStringList{f + "node.scale_up.nvls: unknown key"};
        QTest::newRow("switch all-reduce above 1")
            << with(m4, "node.scale_up.switch_allreduce_fraction", 1.5)
            << QStringList{f +
                           "node.scale_up.switch_allreduce_fraction = 1.5: must be 0 (no reduction in the switch) or a fraction up to 1"};
        QTest::newRow("switch all-reduce negative")
            << with(m4, "node.scale_up.switch_allreduce_fraction", -0.1)
            << QStringList{f +
                           "node.scale_up.switch_allreduce_fraction = -0.1: must be 0 (no reduction in the switch) or a fraction up to 1"};
        QTest::newRow("switch all-reduce huge")
            << with(m4, "node.scale_up.switch_allreduce_fraction", 1e308)
            << QStringList{
                   f + "node.scale_up.switch_allreduce_fraction = 1e+308: must be 0 (no reduction in the switch) or a fraction up to 1"};
        QTest::newRow("switch all-reduce as text")
            << with(m4, "node.scale_up.switch_allreduce_fraction", "61%")
            << QStringList{f + "node.scale_up.switch_allreduce_fraction: expected a number, got string \"61%\""};
        QTest::newRow("margin as text") << with(m4, "software.hbm_allocator_margin", "5%")
                                        << QStringList{f + "software.hbm_allocator_margin: expected a number, got string \"5%\""};
        QTest::newRow("reserved as NaN text") << with(m4, "software.hbm_reserved_gib", "NaN")
                                              << QStringList{f + "software.hbm_reserved_gib: expected a number, got string \"NaN\""};
        QTest::newRow("reserved and margin leave nothing")
            << with(with(m4, "software.hbm_reserved_gib", 60), "software.hbm_allocator_margin", 0.5)
            << QStringList{f +
                           "software.hbm_reserved_gib = 60: must be less than node.hbm_capacity_gib (80) less the "
                           "software's allocator margin (0.5 of it)"};
        QTest::newRow("reserve in the node (format 4)")
            << with(m4, "node.hbm_reserved_gib", 2)
            << QStringList{f +
                           "node.hbm_reserved_gib: is the software's, not the node's, since scenario format 4: give it "
                           "as software.hbm_reserved_gib (or name a software preset, presets/software/)"};
        QTest::newRow("margin in the node (format 4)")
            << with(m4, "node.hbm_allocator_margin", 0.05)
            << QStringList{f +
                           "node.hbm_allocator_margin: is the software's, not the node's, since scenario format 4: give "
                           "it as software.hbm_allocator_margin (or name a software preset, presets/software/)"};
        // A file of format 1 to 3 still gives them in its node, each checked where it stands.
        QTest::newRow("legacy margin above half")
            << with(m, "node.hbm_allocator_margin", 0.6)
            << QStringList{f + "node.hbm_allocator_margin = 0.6: must be a fraction from 0 to 0.5 of hbm_capacity_gib"};
        QTest::newRow("legacy reserve negative")
            << with(m, "node.hbm_reserved_gib", -1) << QStringList{f + "node.hbm_reserved_gib = -1: must be 0 or more GiB (at most 1e6)"};
        QTest::newRow("legacy margin as text") << with(m, "node.hbm_allocator_margin", "5%")
                                               << QStringList{f + "node.hbm_allocator_margin: expected a number, got string \"5%\""};
        QTest::newRow("legacy reserve above capacity")
            << with(m, "node.hbm_reserved_gib", 80)
            << QStringList{f + "software.hbm_reserved_gib = 80: must be less than node.hbm_capacity_gib (80)"};
        QTest::newRow("expanded without bandwidth")
            << with(m, "node.expanded", QJsonObject{{"capacity_gib", 512}})
            << QStringList{f + "node.expanded.bandwidth_gbps = 0: must be > 0 GB/s when node.expanded.capacity_gib > 0"};
    }

    void errorMessages() {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, expected);
        const Loaded<Scenario> l = parse(text);
        expect_failure(l);
        const QStringList lines = lines_of(l);
        bool found = false;
        for (const auto& line : lines) {
            bool all = true;
            for (const auto& part : expected) all = all && line.contains(part);
            found = found || all;
        }
        QVERIFY2(found, qPrintable("expected a line with: " + expected.join(" | ") + "\ngot:\n" + lines.join('\n')));
    }

    void newerVersionStopsReading() {
        const Loaded<Scenario> l = parse(with(with(QByteArray(minimal_json), "version", 7), "future_key", 1));
        expect_failure(l);
        QCOMPARE(l.errors.size(), std::size_t{1});
    }

    void collectsAllStructuralErrors() {
        QByteArray t = with(QByteArray(minimal_json), "model.layers", "x");
        t = without(t, "strategy.tp");
        t = with(t, "node.gemm.max_fractoin", 0.5);
        t = with(t, "node.hbm_bandwidth_gbps", -5);  // a range error: reported only once the structure is sound
        const Loaded<Scenario> l = parse(t);
        expect_failure(l);
        const QStringList lines = lines_of(l);
        QCOMPARE(lines.size(), 3);
        QVERIFY(has_line_starting(lines, label() + ": model.layers: expected an integer"));
        QVERIFY(has_line_starting(lines, label() + ": strategy.tp: missing"));
        QVERIFY(has_line_starting(lines, label() + ": node.gemm.max_fractoin: unknown key (did you mean \"max_fraction\"?)"));
    }

    void collectsAllRangeErrors() {
        QByteArray t = with(QByteArray(minimal_json), "node.hbm_bandwidth_gbps", -5);
        t = with(t, "cluster.nodes", 0);
        t = with(t, "node.gemm", QJsonObject{{"max_fraction", 1.5}});
        const QStringList lines = lines_of(parse(t));
        QCOMPARE(lines.size(), 3);
        QVERIFY(has_line_starting(lines, label() + ": node.hbm_bandwidth_gbps = -5: must be"));
        QVERIFY(has_line_starting(lines, label() + ": cluster.nodes = 0: must be an integer from 1"));
        QVERIFY(has_line_starting(lines, label() + ": node.gemm.max_fraction = 1.5: must be a fraction"));
    }

    void derivedDefaultsAreNotReportedTwice() {
        const Loaded<Scenario> l = parse(with(QByteArray(minimal_json), "model.heads", 0));
        expect_failure(l);
        QCOMPARE(lines_of(l), QStringList{label() + ": model.heads = 0: must be an integer from 1 to 65536"});
    }

    void everyLeafWithWrongType() {
        const QByteArray full = full_text();
        QStringList leaves, sections;
        collect_paths(object_of(full), {}, leaves, sections);
        QVERIFY(leaves.size() > 50);
        for (const QString& path : leaves) {
            for (const QJsonValue& bad : {QJsonValue(QJsonObject{{"x", 1}}), QJsonValue(QJsonArray{1}), QJsonValue(QJsonValue::Null)}) {
                const Loaded<Scenario> l = parse(with(full, path, bad));
                expect_failure(l);
                QVERIFY2(has_line_starting(lines_of(l), label() + ": " + path + ": expected "),
                         qPrintable(path + ":\n" + lines_of(l).join('\n')));
            }
        }
    }

    void everySectionWithWrongType() {
        const QByteArray full = full_text();
        QStringList leaves, sections;
        collect_paths(object_of(full), {}, leaves, sections);
        QCOMPARE(sections.size(), 11);
        for (const QString& path : sections) {
            for (const QJsonValue& bad : {QJsonValue(1), QJsonValue("x"), QJsonValue(QJsonArray{}), QJsonValue(QJsonValue::Null),
                                          QJsonValue(true), QJsonValue(1.5)}) {
                const Loaded<Scenario> l = parse(with(full, path, bad));
                expect_failure(l);
                // "model", "node" and "software" may also be a preset name: a string that names none says so.
                const bool preset_ref = bad.isString() && (path == "model" || path == "node" || path == "software");
                const QString expected = preset_ref ? label() + ": " + path + " = \"x\": no " + path + " preset of that name"
                                                    : label() + ": " + path + ": expected an object, got ";
                QVERIFY2(has_line_starting(lines_of(l), expected), qPrintable(path + ":\n" + lines_of(l).join('\n')));
            }
        }
    }

    void requiredAndOptionalKeys() {
        const QStringList required = {"format",
                                      "version",
                                      "model",
                                      "node",
                                      "cluster",
                                      "training",
                                      "strategy",
                                      "model.layers",
                                      "model.hidden",
                                      "model.heads",
                                      "model.ffn_hidden",
                                      "model.seq_len",
                                      "model.vocab",
                                      "node.accelerators",
                                      "node.matrix_fp16_tflops",
                                      "node.vector_tflops",
                                      "node.hbm_capacity_gib",
                                      "node.hbm_bandwidth_gbps",
                                      "node.scale_up",
                                      "node.scale_up.domain_size",
                                      "node.scale_up.bandwidth_gbps",
                                      "node.scale_out",
                                      "node.scale_out.bandwidth_gbps",
                                      "cluster.nodes",
                                      "training.global_batch",
                                      "strategy.tp",
                                      "strategy.pp",
                                      "strategy.dp",
                                      "strategy.microbatch",
                                      "software",
                                      "software.host_op_us"};
        const QByteArray full = full_text();
        QStringList leaves, sections;
        collect_paths(object_of(full), {}, leaves, sections);
        for (const QString& path : leaves + sections) {
            const Loaded<Scenario> l = parse(without(full, path));
            if (required.contains(path)) {
                expect_failure(l);
                QVERIFY2(lines_of(l).contains(label() + ": " + path + ": missing (required)"),
                         qPrintable(path + ":\n" + lines_of(l).join('\n')));
            } else if (path == "node.expanded.bandwidth_gbps") {
                // Optional, but this scenario has an expanded tier, which needs a bandwidth.
                QVERIFY(has_line_starting(lines_of(l), label() + ": node.expanded.bandwidth_gbps = 0: must be"));
            } else {
                QVERIFY2(l.ok(), qPrintable(path + ":\n" + QString::fromStdString(l.error_text())));
            }
        }
    }

    void deepNestingIsRefused() {
        for (const QByteArray& unit : {QByteArray("["), QByteArray("{\"a\":")}) {
            const Loaded<Scenario> l = parse(unit.repeated(100000));
            expect_failure(l);
            QVERIFY2(lines_of(l).join('\n').contains("nested deeper than 64 levels"), l.error_text().c_str());
        }
        // 1 (top level) + 63 arrays is allowed and then reported as an unknown key; 1 + 64 is not.
        const QByteArray ok_depth = with_raw(minimal_json, "extra", QByteArray("[").repeated(63) + QByteArray("]").repeated(63));
        QCOMPARE(lines_of(parse(ok_depth)),
                 QStringList{label() + ": extra: unknown key (allowed keys: format, version, "
                                       "name, description, workload, model, node, cluster, training, strategy, cost, "
                                       "comparison)"});
        const QByteArray too_deep = with_raw(minimal_json, "extra", QByteArray("[").repeated(64) + QByteArray("]").repeated(64));
        QVERIFY(lines_of(parse(too_deep)).join('\n').contains("nested deeper than 64 levels"));
    }

    void binaryGarbageIsRefused() {
        QRandomGenerator rng(12345);
        for (int round = 0; round < 20; ++round) {
            QByteArray garbage(4096 + round * 777, Qt::Uninitialized);
            for (auto& c : garbage) c = static_cast<char>(rng.bounded(256));
            if (round % 2 == 1) garbage.prepend("{\"format\": \"");  // garbage inside a string
            const Loaded<Scenario> l = parse(garbage);
            expect_failure(l);
            for (const auto& e : l.errors) {
                const QByteArray bytes = QByteArray::fromStdString(e);
                QCOMPARE(QString::fromUtf8(bytes).toUtf8(), bytes);  // messages stay valid UTF-8
            }
        }
    }

    void oversizedInputIsRefused() {
        QByteArray big = QByteArray(minimal_json);
        big.append(QByteArray(20 << 20, ' '));
        const Loaded<Scenario> l = parse(big);
        expect_failure(l);
        QVERIFY2(lines_of(l).join('\n').contains("is too large"), l.error_text().c_str());
        QVERIFY(lines_of(l).join('\n').contains("16 MiB"));
    }

    void hostileValuesAreBounded() {
        // A huge unknown key is shortened in the message; a huge name is fine.
        const QString long_key(100000, 'k');
        expect_failure(parse(with(minimal_json, "model." + long_key, 1)));
        const Loaded<Scenario> named = parse(with(minimal_json, "name", QString(1 << 20, 'n')));
        QVERIFY(named.ok());
        QCOMPARE(named.value->name.size(), std::size_t{1} << 20);
        // Many unknown keys: the list of errors is capped.
        QJsonObject many = object_of(minimal_json);
        for (int i = 0; i < 20000; ++i) many.insert(QStringLiteral("junk%1").arg(i), i);
        const Loaded<Scenario> l = parse(text_of(many));
        expect_failure(l);
        QVERIFY(l.errors.size() <= 51);
        const QStringList lines = lines_of(l);
        QVERIFY(lines.last().endsWith("more errors not shown"));
        // Control characters and invalid UTF-8 inside strings.
        expect_failure(parse(QByteArray("{\"format\": \"a\x01\"}")));
        expect_failure(parse(QByteArray("{\"format\": \"\xff\xfe\"}")));
        expect_failure(parse(QByteArray("{\"format\": \"\\ud800\"}")));
        expect_failure(parse(QByteArray("\0\0\0\0", 4)));
    }

    void fileErrors() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath("missing.comet.json");
        QCOMPARE(lines_of(load_scenario_file(missing.toStdString())), QStringList{missing + ": cannot open: No such file or directory"});
        QCOMPARE(lines_of(load_scenario_file(dir.path().toStdString())), QStringList{dir.path() + ": cannot open: Is a directory"});

        const QString empty = dir.filePath("empty.comet.json");
        QVERIFY(write_file(empty, {}));
        QCOMPARE(lines_of(load_scenario_file(empty.toStdString())), QStringList{empty + ": is empty (expected a JSON object)"});

        const QString big = dir.filePath("big.comet.json");
        QVERIFY(write_file(big, QByteArray(minimal_json) + QByteArray(20 << 20, ' ')));
        const QStringList lines = lines_of(load_scenario_file(big.toStdString()));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].startsWith(big + ": is too large (") && lines[0].contains("16 MiB"), qPrintable(lines[0]));

        const QString bad = dir.filePath("bad.json");
        QVERIFY(write_file(bad, with(minimal_json, "strategy.tp", "eight")));
        QCOMPARE(lines_of(load_scenario_file(bad.toStdString())),
                 QStringList{bad + ": strategy.tp: expected an integer, got string \"eight\""});
    }

    void atomicSaveReplacesAndKeepsMode() {
        QTemporaryDir dir;
        const QString target = dir.filePath("s.comet.json");
        QVERIFY(write_file(target, "old"));
        QVERIFY(QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        QCOMPARE(QString::fromStdString(save_text_atomically(target.toStdString(), "new text")), QString());
        QCOMPARE(read_all(target), QByteArray("new text"));
        using std::filesystem::perms;
        QVERIFY(std::filesystem::status(target.toStdString()).permissions() ==
                (perms::owner_read | perms::owner_write | perms::group_read));
        QCOMPARE(dir_entries(dir.path()), QStringList{"s.comet.json"});
    }

    void atomicSaveIntoRegularFileFails() {
        QTemporaryDir dir;
        const QString parent = dir.filePath("not-a-dir");
        QVERIFY(write_file(parent, "precious"));
        const QString target = parent + "/s.comet.json";
        const QString message = QString::fromStdString(save_text_atomically(target.toStdString(), "x"));
        QVERIFY2(message.contains(target) && message.contains("Not a directory"), qPrintable(message));
        QCOMPARE(read_all(parent), QByteArray("precious"));
        QCOMPARE(dir_entries(dir.path()), QStringList{"not-a-dir"});
    }

    void atomicSaveOverDirectoryFailsCleanly() {
        QTemporaryDir dir;
        const QString target = dir.filePath("taken");
        QVERIFY(QDir(dir.path()).mkpath("taken/inner"));
        const QString message = QString::fromStdString(save_text_atomically(target.toStdString(), "x"));
        QVERIFY2(message.contains(target) && message.contains("cannot replace"), qPrintable(message));
        QVERIFY(QFileInfo(target + "/inner").isDir());
        QCOMPARE(dir_entries(dir.path()), QStringList{"taken"});
    }

    void atomicSaveFailedWriteKeepsOldFile() {
        // A file size limit makes write() fail part-way (EFBIG), even for root.
        QTemporaryDir dir;
        const QString target = dir.filePath("s.comet.json");
        QVERIFY(write_file(target, "old contents"));
        rlimit saved{};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        rlimit small = saved;
        small.rlim_cur = 4096;
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        const std::string message = save_text_atomically(target.toStdString(), std::string(1 << 20, 'x'));
        ::setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previous);
        QVERIFY2(QString::fromStdString(message).contains(target), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains("File too large"), message.c_str());
        QCOMPARE(read_all(target), QByteArray("old contents"));
        QCOMPARE(dir_entries(dir.path()), QStringList{"s.comet.json"});
    }

    void atomicSaveIntoReadOnlyDirectoryKeepsOldFile() {
        QTemporaryDir dir;
        const QString sub = dir.filePath("ro");
        QVERIFY(QDir(dir.path()).mkdir("ro"));
        const QString target = sub + "/s.comet.json";
        QVERIFY(write_file(target, "old contents"));
        QVERIFY(QFile::setPermissions(sub, QFile::ReadOwner | QFile::ExeOwner));
        const bool privileged = ::access(sub.toLocal8Bit().constData(), W_OK) == 0;
        const std::string message = privileged ? std::string() : save_text_atomically(target.toStdString(), "new");
        QFile::setPermissions(sub, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (privileged) QSKIP("running with privileges that ignore directory permissions");
        QVERIFY2(QString::fromStdString(message).contains(target), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains("Permission denied"), message.c_str());
        QCOMPARE(read_all(target), QByteArray("old contents"));
        QCOMPARE(dir_entries(sub), QStringList{"s.comet.json"});
    }

    // ---- DLRM (format version 2) ----------------------------------------------------------------

    // A DLRM scenario: the "dlrm" section instead of "model", a strategy of dp and the tables'
    // keys; it saves and loads back equal, with every DLRM key written.
    void dlrmRoundTrips() {
        Scenario s = full_scenario();
        s.designs.clear();
        switch_workload(s.config, Workload::dlrm);
        s.model_info = {"DLRM-DCNv2", "MLPerf Training"};
        s.config.strategy.emb_sharding = EmbeddingSharding::row_wise;
        s.config.strategy.emb_placement = EmbeddingPlacement::cached;
        s.config.strategy.emb_cache_fraction = 0.25;
        s.config.strategy.emb_cache_hit_rate = 0.75;
        s.config.strategy.emb_state = EmbeddingStateTier::hbm;
        s.config.dlrm.unique_rows_fraction = 0.5;
        s.config.dlrm.embedding_dtype = EmbeddingDtype::fp16;
        s.config.dlrm.table_optimizer = EmbeddingOptimizer::adam;
        s.config.training.global_batch = 65536;
        QVERIFY(check_config(s.config).empty());
        const std::string text = scenario_to_json(s);
        const QJsonObject o = object_of(QByteArray::fromStdString(text));
        QCOMPARE(o.value("version").toInt(), 4);
        QCOMPARE(o.value("workload").toString(), QStringLiteral("dlrm"));
        QVERIFY(!o.contains("model"));
        QCOMPARE(o.value("dlrm").toObject().value("tables").toArray().size(), 26);
        QCOMPARE(o.value("strategy").toObject().value("emb_placement").toString(), QStringLiteral("cached"));
        QVERIFY(!o.value("strategy").toObject().contains("microbatch"));  // neutral: left out
        const Loaded<Scenario> back = parse(QByteArray::fromStdString(text));
        QVERIFY2(back.ok(), back.error_text().c_str());
        // The transformer's shape is not part of a DLRM file; the rest comes back equal.
        Config expected = s.config;
        expected.model = ModelSpec{};
        QCOMPARE(back.value->config, expected);
        QCOMPARE(back.value->model_info.name, s.model_info.name);
        QCOMPARE(scenario_to_json(*back.value), text);
    }

    // The smallest DLRM file, and a table group whose rows are a range: 10 tables spread
    // geometrically from 1e3 to 1e7 rows become 8 groups (2, 2, 1 x 6 tables).
    void dlrmMinimalFileAndRowRanges() {
        const QByteArray dlrm = R"({
          "format": "comet-scenario", "version": 2, "workload": "dlrm",
          "dlrm": { "tables": [ {"count": 10, "rows": {"from": 1000, "to": 10000000}, "dim": 64, "pooling": 4},
                                {"rows": 500, "dim": 64} ],
                    "dense_features": 13, "bottom_mlp": [128, 64], "top_mlp": [256, 1] },
          "node": { "accelerators": 8, "matrix_fp16_tflops": 312, "vector_tflops": 78,
                    "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": 2039,
                    "scale_up": { "domain_size": 8, "bandwidth_gbps": 300 }, "scale_out": { "bandwidth_gbps": 25 } },
          "cluster": { "nodes": 1 }, "training": { "global_batch": 8192 }, "strategy": { "dp": 8 } })";
        const Loaded<Scenario> l = parse(dlrm);
        QVERIFY2(l.ok(), l.error_text().c_str());
        const DlrmSpec& d = l.value->config.dlrm;
        QCOMPARE(l.value->config.workload, Workload::dlrm);
        QCOMPARE(d.table_groups, 9);
        QCOMPARE(d.tables[0].count, 2);
        QCOMPARE(d.tables[2].count, 1);
        QCOMPARE(dlrm_table_count(d), 11.0);
        QCOMPARE(d.tables[0].rows, std::round(1000 * std::pow(1e4, 0.5 / 8)));
        QCOMPARE(d.tables[7].rows, std::round(1000 * std::pow(1e4, 7.5 / 8)));
        QCOMPARE(d.tables[8].rows, 500.0);
        QCOMPARE(d.tables[8].pooling, 1.0);  // defaults: count 1, pooling 1
        QCOMPARE(d.interaction, DlrmInteraction::dot);
        QCOMPARE(l.value->config.strategy.tp, 1);
        QVERIFY(evaluate(l.value->config).feasible);
    }

    // Version 1 files are transformers and load unchanged; they are written back as version 3.
    // A version 1 file cannot say "workload" (it did not exist).
    void versionOneMigrates() {
        const Loaded<Scenario> v1 = parse(minimal_json);
        QVERIFY2(v1.ok(), v1.error_text().c_str());
        QCOMPARE(v1.value->config.workload, Workload::transformer);
        const QJsonObject saved = object_of(QByteArray::fromStdString(scenario_to_json(*v1.value)));
        QCOMPARE(saved.value("version").toInt(), 4);
        QCOMPARE(saved.value("workload").toString(), QStringLiteral("transformer"));
        const Loaded<Scenario> again = parse(QByteArray::fromStdString(scenario_to_json(*v1.value)));
        QVERIFY(again.ok());
        QCOMPARE(again.value->config, v1.value->config);
        QCOMPARE(lines_of(parse(with(minimal_json, "workload", "dlrm"))),
                 QStringList{label() + ": workload: needs format version 2 (this file says version 1)"});
        // Every shipped version 1 scenario still loads.
        for (const auto& e : std::filesystem::directory_iterator(presets_dir() / "scenarios")) {
            const Loaded<Scenario> l = load_scenario_file(e.path());
            QVERIFY2(l.ok(), l.error_text().c_str());
        }
    }

    // Hostile DLRM input: every problem named by its key path, with what is allowed.
    void dlrmErrorsNameTheKey_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QByteArray base = QByteArray::fromStdString([] {
            Scenario s = full_scenario();
            s.designs.clear();
            switch_workload(s.config, Workload::dlrm);
            s.config.dlrm.table_groups = 2;
            s.config.training.global_batch = 65536;
            return scenario_to_json(s);
        }());
        const QString f = label() + ": ";
        QTest::newRow("workload unknown") << with(base, "workload", "gnn") << f + "workload = \"gnn\": must be one of transformer, dlrm";
        QTest::newRow("model in a dlrm") << with(base, "model", QJsonObject{})
                                         << f + "model: a DLRM scenario describes its model in \"dlrm\"";
        QTest::newRow("dlrm in a transformer") << with(full_text(), "dlrm", QJsonObject{}) << f + "dlrm: only with \"workload\": \"dlrm\"";
        QTest::newRow("dlrm missing") << without(base, "dlrm") << f + "dlrm: missing (required)";
        QTest::newRow("tables not a list") << with(base, "dlrm.tables", 3) << f + "dlrm.tables = 3: must be a list of 1 to 32 table groups";
        QTest::newRow("tables empty") << with(base, "dlrm.tables", QJsonArray{})
                                      << f + "dlrm.tables = an empty list: must be a list of 1 to 32";
        QJsonArray many;
        for (int i = 0; i < 33; ++i) many.append(QJsonObject{{"rows", 10}, {"dim", 128}});
        QTest::newRow("33 groups") << with(base, "dlrm.tables", many) << f + "dlrm.tables = a list of 33 items: must be a list of 1 to 32";
        QJsonArray ranges;
        for (int i = 0; i < 5; ++i)
            ranges.append(QJsonObject{{"count", 8}, {"rows", QJsonObject{{"from", 10}, {"to", 1000}}}, {"dim", 128}});
        QTest::newRow("ranges over 32") << with(base, "dlrm.tables", ranges)
                                        << f + "dlrm.tables: 40 table groups after spreading the row ranges; at most 32";
        QTest::newRow("group not object")
            << with(base, "dlrm.tables", QJsonArray{7})
            << f + "dlrm.tables[0]: expected a table group {\"count\", \"rows\", \"dim\", \"pooling\"}, got 7";
        QTest::newRow("rows missing") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"dim", 8}}})
                                      << f + "dlrm.tables[0].rows: missing";
        QTest::newRow("rows text") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", "many"}, {"dim", 8}}})
                                   << f + "dlrm.tables[0].rows: expected a number, got string \"many\"";
        QTest::newRow("rows zero") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", 0}, {"dim", 128}}})
                                   << f + "dlrm.tables[0].rows = 0: must be a whole number of rows from 1 to 1e13";
        QTest::newRow("rows range backwards")
            << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", QJsonObject{{"from", 100}, {"to", 10}}}, {"dim", 128}}})
            << f + "dlrm.tables[0].rows = {from 100";
        QTest::newRow("rows range key") << with(base, "dlrm.tables",
                                                QJsonArray{QJsonObject{{"rows", QJsonObject{{"from", 1}}}, {"dim", 128}}})
                                        << f + "dlrm.tables[0].rows.to: missing (required)";
        QTest::newRow("dim fraction") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", 10}, {"dim", 1.5}}})
                                      << f + "dlrm.tables[0].dim: expected an integer";
        QTest::newRow("pooling negative") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", 10}, {"dim", 128}, {"pooling", -1}}})
                                          << f + "dlrm.tables[0].pooling = -1: must be > 0";
        QTest::newRow("group unknown key") << with(base, "dlrm.tables", QJsonArray{QJsonObject{{"rows", 10}, {"dim", 128}, {"hot", 2}}})
                                           << f + "dlrm.tables[0].hot: unknown key";
        QTest::newRow("bottom not list") << with(base, "dlrm.bottom_mlp", "512")
                                         << f + "dlrm.bottom_mlp = string \"512\": must be a list of 0 to 8";
        QTest::newRow("bottom fraction") << with(base, "dlrm.bottom_mlp", QJsonArray{512, 2.5, 128})
                                         << f + "dlrm.bottom_mlp[1] = 2.5: must be an integer width from 1 to 1e7";
        QTest::newRow("bottom zero") << with(base, "dlrm.bottom_mlp", QJsonArray{512, 0, 128})
                                     << f + "dlrm.bottom_mlp[1] = 0: must be an integer width from 1 to 1e7";
        QTest::newRow("top missing") << without(base, "dlrm.top_mlp") << f + "dlrm.top_mlp: missing (a list of 1 to 8 layer widths)";
        QTest::newRow("top empty") << with(base, "dlrm.top_mlp", QJsonArray{})
                                   << f + "dlrm.top_mlp = an empty list: must be a list of 1 to 8";
        QTest::newRow("top nine") << with(base, "dlrm.top_mlp", QJsonArray{1, 1, 1, 1, 1, 1, 1, 1, 1})
                                  << f + "dlrm.top_mlp = a list of 9 items: must be a list of 1 to 8";
        QTest::newRow("interaction") << with(base, "dlrm.interaction", "cross")
                                     << f + "dlrm.interaction = \"cross\": must be one of dot, dcn";
        QTest::newRow("dtype") << with(base, "dlrm.embedding_dtype", "int8")
                               << f + "dlrm.embedding_dtype = \"int8\": must be one of fp32, fp16, bf16";
        QTest::newRow("optimizer") << with(base, "dlrm.table_optimizer", "lamb")
                                   << f + "dlrm.table_optimizer = \"lamb\": must be one of sgd, rowwise_adagrad, adagrad, adam";
        QTest::newRow("unique") << with(base, "dlrm.unique_rows_fraction", 2)
                                << f + "dlrm.unique_rows_fraction = 2: must be a fraction > 0 and <= 1";
        QTest::newRow("cross layers") << with(base, "dlrm.cross_layers", -1)
                                      << f + "dlrm.cross_layers = -1: must be an integer from 0 to 64";
        QTest::newRow("sharding") << with(base, "strategy.emb_sharding", "tablewise")
                                  << f + "strategy.emb_sharding = \"tablewise\": must be one of table_wise, row_wise, column_wise";
        QTest::newRow("placement") << with(base, "strategy.emb_placement", "ssd")
                                   << f + "strategy.emb_placement = \"ssd\": must be one of hbm, expanded, cached";
        QTest::newRow("state") << with(base, "strategy.emb_state", "host")
                               << f + "strategy.emb_state = \"host\": must be one of with_rows, hbm, expanded";
        QTest::newRow("hit rate") << with(base, "strategy.emb_cache_hit_rate", -0.5)
                                  << f + "strategy.emb_cache_hit_rate = -0.5: must be a fraction";
        QTest::newRow("cache share text") << with(base, "strategy.emb_cache_fraction", "10%")
                                          << f + "strategy.emb_cache_fraction: expected a number, got string \"10%\"";
        QTest::newRow("tp in a dlrm") << with(base, "strategy.tp", 2) << f + "strategy.tp = 2: must be 1 for a DLRM";
        QTest::newRow("dp missing") << without(base, "strategy.dp") << f + "strategy.dp: missing (required)";
        QTest::newRow("dlrm preset unknown") << with(base, "dlrm", "dlrm-nonesuch")
                                             << f + "dlrm = \"dlrm-nonesuch\": no DLRM model preset of that name";
        QTest::newRow("transformer preset as dlrm") << with(base, "dlrm", "llama3-8b") << f + "dlrm = \"llama3-8b\": no DLRM model preset";
    }
    void dlrmErrorsNameTheKey() {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Loaded<Scenario> l = parse(text);
        QVERIFY(!l.ok());
        QVERIFY2(has_line_starting(lines_of(l), expected),
                 qPrintable("expected a line starting with: " + expected + "\ngot:\n" + lines_of(l).join('\n')));
    }

    void errorTextJoinsLines() {
        Loaded<Scenario> l;
        l.errors = {"a: x", "b: y"};
        QCOMPARE(l.error_text(), std::string("a: x\nb: y"));
        QVERIFY(!l.ok());
    }

    void enumNames() {
        QCOMPARE(to_string(Precision::fp8), std::string_view("fp8"));
        QCOMPARE(to_string(Recompute::selective), std::string_view("selective"));
        QCOMPARE(to_string(AttentionKernel::fused), std::string_view("fused"));
        QCOMPARE(to_string(Optimizer::sgd), std::string_view("sgd"));
        QCOMPARE(to_string(GradDtype::bf16), std::string_view("bf16"));
        QCOMPARE(to_string(ExpandedAttach::per_accelerator), std::string_view("per_accelerator"));
    }
};

QTEST_APPLESS_MAIN(TestScenarioIo)
#include "test_scenario_io.moc"
