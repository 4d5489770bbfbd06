// Every shipped preset loads, the default scenario is built from them, and each evaluates.
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/scenario.hpp"

using namespace comet;
namespace fs = std::filesystem;

class TestPresets : public QObject {
    Q_OBJECT
private slots:
    void presetsDirectoryIsTheSourceTree();
    void everyNodePresetLoads();
    void everyModelPresetLoads();
    void everyScenarioLoadsAndEvaluates();
    void defaultScenarioUsesThePresets();
    void aliasesFindTheirNode();
    void malformedPresetIsRefusedWithPath();
    void presetCrossFieldRulesAreChecked();
    void priceSectionGivesOnePrice();
    void trainingTokensBecomeTheBudget();
    void scenarioReferencesPresetsByName();
    void unknownPresetNameIsReported();
    void userPresetsSaveLoadAndOverride();
};

void TestPresets::presetsDirectoryIsTheSourceTree() {
    QVERIFY(fs::is_directory(presets_dir() / "nodes"));
    QVERIFY(fs::is_directory(presets_dir() / "models"));
    QVERIFY(fs::is_regular_file(presets_dir() / "scenarios" / "default.comet.json"));
}

void TestPresets::everyNodePresetLoads() {
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const auto& e : errors) qWarning("%s", e.c_str());
    QVERIFY(errors.empty());
    QVERIFY(nodes.size() >= 2);
    for (const auto& n : nodes) {
        QVERIFY2(!n.info.name.empty(), n.id.c_str());
        QVERIFY2(n.info.source.size() > 40, ("a preset must cite its source: " + n.id).c_str());
        QVERIFY(n.node.matrix_fp16_tflops > 0);
        QVERIFY(n.node.hbm_bandwidth_gbps > 0);
        // Hardware only: no shipped node file gives what the software keeps of the HBM.
        QVERIFY2(n.legacy_memory == LegacyNodeMemory{}, n.id.c_str());
    }
    // Every software preset gives its runtime reserve and allocator margin, each with a source.
    const auto software = load_software_presets(errors);
    QVERIFY(errors.empty());
    for (const auto& sw : software) {
        for (const char* key : {"hbm_reserved_gib", "hbm_allocator_margin"}) {
            const auto it = std::find_if(sw.sources.begin(), sw.sources.end(), [&](const auto& s) { return s.first == key; });
            QVERIFY2(it != sw.sources.end() && it->second.size() > 40, (sw.id + ": " + key).c_str());
        }
        QVERIFY2(sw.software.hbm_reserved_gib > 0, sw.id.c_str());
    }
}

void TestPresets::everyModelPresetLoads() {
    std::vector<std::string> errors;
    const auto models = load_model_presets(errors);
    for (const auto& e : errors) qWarning("%s", e.c_str());
    QVERIFY(errors.empty());
    QVERIFY(models.size() >= 10);
    for (const auto& m : models) {
        QVERIFY2(!m.info.source.empty(), m.id.c_str());
        if (m.workload == Workload::dlrm) {
            QVERIFY2(m.dlrm.table_groups > 0 && dlrm_embedding_rows(m.dlrm) > 0, m.id.c_str());
            continue;
        }
        QCOMPARE(m.model.heads % m.model.kv_heads, 0);
    }
}

void TestPresets::everyScenarioLoadsAndEvaluates() {
    int count = 0;
    for (const auto& e : fs::directory_iterator(presets_dir() / "scenarios")) {
        const auto s = load_scenario_file(e.path());
        QVERIFY2(s.ok(), s.error_text().c_str());
        const Result r = evaluate(s.value->config);
        QVERIFY2(r.feasible, e.path().c_str());
        QVERIFY(r.iteration_s > 0);
        ++count;
    }
    QVERIFY(count >= 1);
}

void TestPresets::defaultScenarioUsesThePresets() {
    const auto s = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
    QVERIFY2(s.ok(), s.error_text().c_str());
    const auto node = load_node_preset(presets_dir() / "nodes" / "dgx-a100-80gb.json");
    const auto model = load_model_preset(presets_dir() / "models" / "megatron-1t.json");
    QVERIFY2(node.ok(), node.error_text().c_str());
    QVERIFY2(model.ok(), model.error_text().c_str());
    // Embedded copies must not drift from the library they were taken from.
    const std::string a = scenario_to_json(*s.value);
    Scenario rebuilt = *s.value;
    rebuilt.config.node = node.value->node;
    rebuilt.node_info = node.value->info;
    rebuilt.config.model = model.value->model;
    rebuilt.model_info = model.value->info;
    QCOMPARE(QString::fromStdString(scenario_to_json(rebuilt)), QString::fromStdString(a));
    QCOMPARE(accelerators_used(s.value->config.strategy), 3072LL);
}

void TestPresets::aliasesFindTheirNode() {
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const NodePreset* a100 = match_node_preset(nodes, "DGX A100 80GB (Selene): 8 A100-SXM4-80GB per node");
    QVERIFY(a100);
    QCOMPARE(QString::fromStdString(a100->id), QStringLiteral("dgx-a100-80gb"));
    const NodePreset* h100 = match_node_preset(nodes, "a cluster of h100-sxm5-80gb");
    QVERIFY(h100);
    QCOMPARE(QString::fromStdString(h100->id), QStringLiteral("dgx-h100"));
    QVERIFY(!match_node_preset(nodes, "a cluster of toasters"));
}

void TestPresets::malformedPresetIsRefusedWithPath() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "bad-node.json";
    {
        QFile f(QString::fromStdString(file.string()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "comet-node", "version": 1, "node": {"accelerators": 8, "matrix_fp16_tflops": 0,
                  "vector_tflops": 10, "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": "fast",
                  "scale_up": {"domain_size": 8, "bandwidth_gbps": 300}, "scale_out": {"bandwidth_gbps": 25}, "colour": 1}})");
    }
    const auto l = load_node_preset(file);
    QVERIFY(!l.ok());
    const QString text = QString::fromStdString(l.error_text());
    QVERIFY2(text.contains("bad-node.json: node.hbm_bandwidth_gbps"), qPrintable(text));
    QVERIFY2(text.contains("node.colour: unknown key"), qPrintable(text));
}

// Regression (found by tests/fuzz/fuzz_preset): the cross-field rules were skipped for presets,
// because check_config() runs them only when every field of the whole Config is in range and the
// loader checked the preset's section inside an otherwise zero Config. Such a preset loaded, but
// every scenario using it was refused (and evaluate() called it invalid input).
void TestPresets::presetCrossFieldRulesAreChecked() {
    QTemporaryDir dir;
    const auto write = [&](const std::string& name, const QByteArray& text) {
        fs::path file = fs::path(dir.path().toStdString()) / name;
        QFile f(QString::fromStdString(file.string()));
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", file.c_str());
        f.write(text);
        return file;
    };
    const QByteArray node = R"({"format": "comet-node", "version": 1, "node": {"accelerators": 8, "matrix_fp16_tflops": 312,
        "vector_tflops": 78, "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": 2039, "hbm_reserved_gib": %1,
        "expanded": {"capacity_gib": %2, "bandwidth_gbps": 0},
        "scale_up": {"domain_size": 8, "bandwidth_gbps": 300}, "scale_out": {"bandwidth_gbps": 25}}})";
    // A node file written before format 4 may still give the software's reserve: it loads, the
    // value is kept for older scenarios that name the node and the source says where it went.
    const auto older = load_node_preset(write("older.json", QByteArray(node).replace("%1", "3").replace("%2", "0")));
    QVERIFY2(older.ok(), older.error_text().c_str());
    QCOMPARE(older.value->legacy_memory.hbm_reserved_gib.value_or(-1), 3.0);
    QVERIFY(!older.value->legacy_memory.hbm_allocator_margin.has_value());
    QVERIFY(older.value->info.source.find("the software's since scenario format 4") != std::string::npos);
    const auto hostile = load_node_preset(write("hostile.json", QByteArray(node).replace("%1", "-2").replace("%2", "0")));
    QVERIFY(!hostile.ok());
    QVERIFY2(QString::fromStdString(hostile.error_text())
                 .endsWith("hostile.json: node.hbm_reserved_gib = -2: must be 0 or more GiB (at most 1e6)"),
             hostile.error_text().c_str());
    // A software preset's reserve and margin are checked where they now live.
    const auto margin = load_software_preset(write("margin.json", R"({"format": "comet-software", "version": 1,
        "software": {"name": "m", "source": "test", "host_op_us": 0, "hbm_allocator_margin": 0.7},
        "sources": {"host_op_us": "test", "hbm_allocator_margin": "test"}})"));
    QVERIFY(!margin.ok());
    QVERIFY2(QString::fromStdString(margin.error_text())
                 .endsWith("margin.json: software.hbm_allocator_margin = 0.7: must be a fraction from 0 to 0.5 of node.hbm_capacity_gib"),
             margin.error_text().c_str());
    const auto reserve = load_software_preset(write("reserve.json", R"({"format": "comet-software", "version": 1,
        "software": {"name": "r", "source": "test", "host_op_us": 0, "hbm_reserved_gib": "2 GiB"},
        "sources": {"host_op_us": "test", "hbm_reserved_gib": "test"}})"));
    QVERIFY(!reserve.ok());
    QVERIFY2(QString::fromStdString(reserve.error_text())
                 .endsWith("reserve.json: software.hbm_reserved_gib: expected a number, got string \"2 GiB\""),
             reserve.error_text().c_str());
    const auto expanded = load_node_preset(write("expanded.json", QByteArray(node).replace("%1", "2").replace("%2", "1")));
    QVERIFY(!expanded.ok());
    QVERIFY2(QString::fromStdString(expanded.error_text())
                 .endsWith("expanded.json: node.expanded.bandwidth_gbps = 0: must be > 0 GB/s when node.expanded.capacity_gib > 0"),
             expanded.error_text().c_str());
    const auto model = load_model_preset(write("model.json", R"({"format": "comet-model", "version": 1, "model": {"layers": 2,
        "hidden": 64, "heads": 4, "kv_heads": 3, "ffn_hidden": 256, "seq_len": 16, "vocab": 100}})"));
    QVERIFY(!model.ok());
    QVERIFY2(QString::fromStdString(model.error_text()).endsWith("model.json: model.kv_heads = 3: must be a divisor of model.heads (4)"),
             model.error_text().c_str());
    // The same files with valid values load.
    QVERIFY(load_node_preset(write("ok.json", QByteArray(node).replace("%1", "2").replace("%2", "0"))).ok());
}

// A node preset's price is an hourly price or a purchase price, never both, never none, never
// a non-positive or non-finite number; applying it replaces the scenario's GPU price whole.
// A model preset's published training tokens (issue 40 item 2): checked at load (a number from
// 1e6 to 1e16, the field named), and picking the preset makes them the scenario's token budget,
// which the change list says; a preset that publishes none leaves the scenario's budget.
void TestPresets::trainingTokensBecomeTheBudget() {
    QTemporaryDir dir;
    int n = 0;
    const auto load = [&](const std::string& tokens) {
        const fs::path file = fs::path(dir.path().toStdString()) / ("model" + std::to_string(++n) + ".json");
        QFile f(QString::fromStdString(file.string()));
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", file.c_str());
        f.write(QByteArray::fromStdString(R"({"format": "comet-model", "version": 1, "model": {"name": "m", "source": "s",
            "layers": 4, "hidden": 512, "heads": 8, "ffn_hidden": 2048, "seq_len": 1024, "vocab": 32000},
            "training": {"seq_len": 2048, "precision": "bf16", "global_batch_tokens": 1048576)" +
                                          (tokens.empty() ? std::string() : ", \"tokens_to_train\": " + tokens) +
                                          R"(, "source": "a paper"}})"));
        f.close();
        return load_model_preset(file);
    };
    for (const char* bad : {"0", "-1", "999999", "1e17", "\"15T\"", "true", "null", "[1]"}) {
        const auto l = load(bad);
        QVERIFY2(!l.ok(), bad);
        QVERIFY2(l.error_text().find("training.tokens_to_train") != std::string::npos, l.error_text().c_str());
    }
    QVERIFY(load("1e17").error_text().find("training.tokens_to_train: is 1e+17; must be from 1e6 to 1e16 tokens") != std::string::npos);

    const auto published = load("1.5e13");
    QVERIFY2(published.ok(), published.error_text().c_str());
    QCOMPARE(published.value->training->tokens_to_train, 1.5e13);
    const Loaded<Scenario> base = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
    QVERIFY(base.ok());
    QCOMPARE(base.value->cost.tokens_to_train, 450e9);
    Scenario s = *base.value;
    const std::vector<std::string> changes = apply_model_preset(s, *published.value);
    QCOMPARE(s.cost.tokens_to_train, 1.5e13);
    QVERIFY(std::find(changes.begin(), changes.end(), "token budget 450 B tokens \u2192 15 T tokens") != changes.end());

    const auto unpublished = load("");
    QVERIFY2(unpublished.ok(), unpublished.error_text().c_str());
    QCOMPARE(unpublished.value->training->tokens_to_train, 0.0);
    Scenario kept = *base.value;
    const std::vector<std::string> none = apply_model_preset(kept, *unpublished.value);
    QCOMPARE(kept.cost.tokens_to_train, 450e9);
    for (const std::string& c : none) QVERIFY2(c.find("token budget") == std::string::npos, c.c_str());

    // The shipped presets: Llama 3 70B's model cards, Mixtral none.
    const std::optional<ModelPreset> llama = find_model_preset("llama3-70b");
    const std::optional<ModelPreset> mixtral = find_model_preset("mixtral-8x7b");
    QVERIFY(llama && mixtral && llama->training && mixtral->training);
    QCOMPARE(llama->training->tokens_to_train, 15e12);
    QVERIFY(llama->training->source.find("Training tokens: 15T+") != std::string::npos);
    QCOMPARE(mixtral->training->tokens_to_train, 0.0);
}

void TestPresets::priceSectionGivesOnePrice() {
    QTemporaryDir dir;
    int n = 0;
    const auto load = [&](const std::string& price) {
        const fs::path file = fs::path(dir.path().toStdString()) / ("node" + std::to_string(++n) + ".json");
        QFile f(QString::fromStdString(file.string()));
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", file.c_str());
        f.write(QByteArray::fromStdString(R"({"format": "comet-node", "version": 1, "node": {"accelerators": 8,
            "matrix_fp16_tflops": 312, "vector_tflops": 78, "hbm_capacity_gib": 80, "hbm_bandwidth_gbps": 2039,
            "scale_up": {"domain_size": 8, "bandwidth_gbps": 300}, "scale_out": {"bandwidth_gbps": 25}}, "price": )" +
                                          price + "}"));
        f.close();
        return load_node_preset(file);
    };
    const auto refused = [&](const std::string& price, const std::string& message) {
        const auto l = load(price);
        const std::string text = l.error_text();
        if (l.ok() || text.find(message) == std::string::npos)
            qWarning("price %s: expected \"%s\", got \"%s\"", price.c_str(), message.c_str(), text.c_str());
        return !l.ok() && text.find(message) != std::string::npos;
    };
    const std::string src = R"(, "source": "a list")";
    QVERIFY(refused(R"({"source": "a list"})", "price: has no price; give price_per_gpu_hour_usd"));
    QVERIFY(refused(R"({"price_per_gpu_hour_usd": 2, "purchase_price_per_gpu_usd": 20000)" + src + "}",
                    "price: gives both price_per_gpu_hour_usd and purchase_price_per_gpu_usd; give one"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": 0)" + src + "}",
                    "price.purchase_price_per_gpu_usd: is 0; must be a price above 0 US dollars per accelerator"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": -15625)" + src + "}", "price.purchase_price_per_gpu_usd: is -15625"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": "15625")" + src + "}", "price.purchase_price_per_gpu_usd"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": null)" + src + "}", "price.purchase_price_per_gpu_usd"));
    QVERIFY(refused(R"({"price_per_gpu_hour_usd": -1)" + src + "}", "price.price_per_gpu_hour_usd: is -1"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": 15625})", "price.source"));
    QVERIFY(refused(R"({"purchase_price_per_gpu_usd": 15625, "source": "x", "currency": "EUR"})", "price.currency: unknown key"));

    const auto purchase = load(R"({"purchase_price_per_gpu_usd": 15625)" + src + "}");
    QVERIFY2(purchase.ok(), purchase.error_text().c_str());
    QCOMPARE(purchase.value->price->purchase_price_per_gpu_usd, 15625.0);
    QCOMPARE(purchase.value->price->price_per_gpu_hour_usd, 0.0);
    const auto hourly = load(R"({"price_per_gpu_hour_usd": 2.5)" + src + "}");
    QVERIFY2(hourly.ok(), hourly.error_text().c_str());

    // Applying a purchase price clears the scenario's hourly price (which would win over it), and
    // an hourly price clears a purchase price; the note names both changes.
    Scenario s;
    s.cost.price_per_gpu_hour_usd = 1.8;
    std::vector<std::string> notes = apply_node_preset(s, *purchase.value);
    QCOMPARE(s.cost.price_per_gpu_hour_usd, 0.0);
    QCOMPARE(s.cost.purchase_price_per_gpu_usd, 15625.0);
    const auto has = [&](const std::string& text) {
        return std::any_of(notes.begin(), notes.end(), [&](const std::string& x) { return x.find(text) != std::string::npos; });
    };
    QVERIFY(has("price $1.80 \u2192 none (the preset gives a purchase price)"));
    QVERIFY(has("purchase price none \u2192 $15,625 per GPU (a list)"));
    notes = apply_node_preset(s, *hourly.value);
    QCOMPARE(s.cost.price_per_gpu_hour_usd, 2.5);
    QCOMPARE(s.cost.purchase_price_per_gpu_usd, 0.0);
    QVERIFY(has("purchase price $15,625 \u2192 none (the preset gives an hourly price)"));

    // The shipped Gaudi 3 preset carries Intel's list price per accelerator, with its source.
    const std::optional<NodePreset> gaudi = find_node_preset("gaudi3");
    QVERIFY(gaudi && gaudi->price);
    QCOMPARE(gaudi->price->purchase_price_per_gpu_usd, 125000.0 / 8);
    QVERIFY(gaudi->price->source.find("Next Platform") != std::string::npos);
}

void TestPresets::scenarioReferencesPresetsByName() {
    const auto embedded = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
    QVERIFY(embedded.ok());
    std::string text = scenario_to_json(*embedded.value);
    // Replace the embedded node and model objects by their preset names.
    auto replace_section = [&](const std::string& key, const std::string& name) {
        const std::size_t start = text.find("\"" + key + "\": {");
        QVERIFY(start != std::string::npos);
        std::size_t i = text.find('{', start), depth = 0;
        for (; i < text.size(); ++i) {
            if (text[i] == '{') ++depth;
            if (text[i] == '}' && --depth == 0) break;
        }
        text.replace(start, i + 1 - start, "\"" + key + "\": \"" + name + "\"");
    };
    replace_section("model", "megatron-1t");
    replace_section("node", "A100-SXM4-80GB");  // by alias
    const auto referenced = parse_scenario(text, "ref.comet.json");
    QVERIFY2(referenced.ok(), referenced.error_text().c_str());
    QCOMPARE(QString::fromStdString(scenario_to_json(*referenced.value)), QString::fromStdString(scenario_to_json(*embedded.value)));
}

void TestPresets::unknownPresetNameIsReported() {
    const auto s = parse_scenario(R"({"format": "comet-scenario", "version": 1, "model": "gpt-9000", "node": "dgx-a100-80gb",
        "cluster": {"nodes": 1}, "training": {"global_batch": 8}, "strategy": {"tp": 1, "pp": 1, "dp": 1, "microbatch": 1}})",
                                  "x.comet.json");
    QVERIFY(!s.ok());
    const QString text = QString::fromStdString(s.error_text());
    QVERIFY2(text.contains("x.comet.json: model = \"gpt-9000\": no model preset of that name (known: "), qPrintable(text));
    QVERIFY2(text.contains("megatron-1t"), qPrintable(text));
}

void TestPresets::userPresetsSaveLoadAndOverride() {
    QTemporaryDir dir;
    qputenv("COMET_USER_PRESETS_DIR", dir.path().toUtf8());
    NodeSpec node = load_node_preset(presets_dir() / "nodes" / "dgx-a100-80gb.json").value->node;
    node.hbm_bandwidth_gbps = 4096;
    QCOMPARE(QString::fromStdString(save_user_node_preset("my-a100", {"My A100", "measured in our lab"}, node)), QString());
    QCOMPARE(QString::fromStdString(save_user_node_preset("dgx-a100-80gb", {"DGX A100 80GB (ours)", "override"}, node)), QString());
    QVERIFY(!save_user_node_preset("../escape", {}, node).empty());
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    QVERIFY(errors.empty());
    const auto mine = find_node_preset("My A100");
    QVERIFY(mine);
    QCOMPARE(mine->node.hbm_bandwidth_gbps, 4096.0);
    const auto overridden = find_node_preset("dgx-a100-80gb");
    QVERIFY(overridden);
    QCOMPARE(QString::fromStdString(overridden->info.name), QStringLiteral("DGX A100 80GB (ours)"));
    qunsetenv("COMET_USER_PRESETS_DIR");
    QCOMPARE(QString::fromStdString(find_node_preset("dgx-a100-80gb")->info.name), QStringLiteral("DGX A100 80GB"));
}

QTEST_APPLESS_MAIN(TestPresets)
#include "test_presets.moc"
