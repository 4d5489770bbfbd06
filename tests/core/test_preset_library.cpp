// The hardware and model library in presets/: every entry loads, cites its source, has sane
// numbers, matches the published size of the model it names, and trains feasibly somewhere;
// the shipped scenarios and sweeps load and evaluate.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"
#include "comet/knobs.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/sweep_io.hpp"
#include "comet/workload.hpp"

using namespace comet;
namespace fs = std::filesystem;

namespace {

// Published sizes in billions of parameters (all parameters; active ones for MoE models below).
const std::map<std::string, double>& published_billions() {
    static const std::map<std::string, double> table = {
        {"gpt3-175b", 175.0},                 // Brown et al. 2020
        {"mt-nlg-530b", 530.0},               // Smith et al. 2022
        {"bloom-176b", 176.0},                // BigScience 2022 (176,247,271,424)
        {"llama3-8b", 8.03},                  // Llama 3 model card
        {"llama3-70b", 70.6},                 // Llama 3 model card
        {"llama3-405b", 405.0},               // Llama 3 Herd of Models
        {"qwen2.5-72b", 72.7},                // Qwen2.5 model card
        {"mixtral-8x7b", 46.7},               // Mixtral of Experts: 46.7B in total
        {"deepseek-v3", 671.0},               // DeepSeek-V3: 671B in total
        {"gpt-oss-20b", 20.91},               // gpt-oss model card, Table 1: 20.91B in total
        {"llama4-scout-17b-16e", 109.0},      // Llama 4 model card: 109B, with the vision encoder (~0.9B, not modelled)
        {"llama4-maverick-17b-128e", 400.0},  // Llama 4 model card: 400B
        {"kimi-k2", 1040.0},                  // Kimi K2 report (arXiv 2507.20534), Table 2: 1.04T (1026.4B counted here)
        {"qwen3-32b", 32.8},                  // Qwen3-32B model card: 32.8B (31.2B without embeddings)
    };
    return table;
}

// Published active parameters per token of the MoE presets, in billions.
const std::map<std::string, double>& published_active_billions() {
    static const std::map<std::string, double> table = {
        {"mixtral-8x7b", 12.9},              // Mixtral of Experts: 12.9B active of 46.7B
        {"deepseek-v3", 37.0},               // DeepSeek-V3: 37B active of 671B
        {"qwen3-30b-a3b", 3.3},              // Qwen3 technical report: 3.3B active of 30.5B
        {"qwen3-235b-a22b", 22.0},           // 22B active of 235B
        {"gpt-oss-120b", 5.7},               // gpt-oss model card: 5.13B active of 116.8B, plus the 0.58B input embedding counted here
        {"gpt-oss-20b", 4.19},               // gpt-oss model card: 3.61B active of 20.91B, plus the 0.58B input embedding counted here
        {"llama4-scout-17b-16e", 17.0},      // Llama 4 model card: 17B active (1 shared + 1 routed expert per layer)
        {"llama4-maverick-17b-128e", 17.0},  // Llama 4 model card: 17B active (MoE every other layer)
        {"kimi-k2", 32.6},                   // Kimi K2 report, Table 2: 32.6B activated (the model card rounds to 32B)
    };
    return table;
}

// Accelerators whose fp8 rate is deliberately not 2x fp16 (with the reason in their source):
// the vendor's fp8 / fp16 ratio, checked to 1 %; 2 (dense) for every other entry.
double fp8_to_fp16_ratio(const std::string& id) {
    if (id == "gaudi3") return 1.0;                                       // the MME runs FP8 at the BF16 rate
    if (id == "tpu-v6e") return 1.0;                                      // Google lists FP8 at the BF16 rate (918 TFLOP/s)
    if (id == "trn2" || id == "trn2-ultraserver") return 1299.0 / 667.0;  // AWS: 1299 FP8, 667 BF16
    return 2.0;
}

const NodePreset* find_node(const std::vector<NodePreset>& nodes, const std::string& id) {
    for (const auto& n : nodes)
        if (n.id == id) return &n;
    return nullptr;
}

// The shipped files only (load_node_presets() may add the user's own presets).
template <class T>
std::vector<T> load_shipped(const char* kind, Loaded<T> (*load)(const fs::path&), std::vector<std::string>& errors) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(presets_dir() / kind))
        if (e.path().extension() == ".json") files.push_back(e.path());
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

}  // namespace

class TestPresetLibrary : public QObject {
    Q_OBJECT
private slots:
    void libraryHasTheNamedEntries();
    void everyNodeCitesItsSourceAndIsSane();
    void paperNamesFindTheirNode();
    void modelSizesMatchThePublishedOnes();
    void moeModelsHaveTheirExperts();
    void everyModelTrainsOnDgxH100();
    void shippedScenariosEvaluate();
    void scenariosMatchTheLibrary();
    void scenarioNodesNamedAfterAPresetAreThatPreset();
    void shippedSweepsLoad();
    void spineSweepMovesTheSearchOffDataParallelism();
};

void TestPresetLibrary::libraryHasTheNamedEntries() {
    for (const char* id :
         {"dgx-a100-40gb", "dgx-a100-80gb", "dgx-h100", "hgx-h200", "dgx-b200", "gb200-nvl72", "mi300x-platform", "mi325x-platform",
          "gaudi3", "tpu-v5p", "h800", "h200-nvl", "mi355x-platform", "tpu-v6e", "tpu-v7", "trn2", "trn2-ultraserver"})
        QVERIFY2(fs::is_regular_file(presets_dir() / "nodes" / (std::string(id) + ".json")), id);
    for (const auto& [id, size] : published_billions())
        QVERIFY2(fs::is_regular_file(presets_dir() / "models" / (id + ".json")), id.c_str());
    for (const char* f :
         {"scenarios/llama3-70b-64xh100.comet.json", "scenarios/gpt3-175b-1024xa100.comet.json", "scenarios/comet-1t-case-study.comet.json",
          "sweeps/comet-1t-memory-expansion.sweep.json", "sweeps/comet-1t-compute-vs-network.sweep.json"})
        QVERIFY2(fs::is_regular_file(presets_dir() / f), f);
}

void TestPresetLibrary::everyNodeCitesItsSourceAndIsSane() {
    std::vector<std::string> errors;
    const auto nodes = load_shipped<NodePreset>("nodes", load_node_preset, errors);
    for (const auto& e : errors) qWarning("%s", e.c_str());
    QVERIFY(errors.empty());
    QVERIFY(nodes.size() >= 17);
    for (const auto& p : nodes) {
        const NodeSpec& n = p.node;
        const char* id = p.id.c_str();
        QVERIFY2(p.info.source.size() >= 150, (p.id + ": a preset must cite its source in full").c_str());
        QVERIFY2(!p.aliases.empty(), id);
        QVERIFY2(n.accelerators >= 1 && n.scale_up.domain_size >= 1, id);
        // fp8 is absent, or twice fp16 (Hopper, Blackwell, CDNA 3/4, TPU7x), or the vendor's ratio where listed.
        if (n.matrix_fp8_tflops > 0) {
            const double ratio = n.matrix_fp8_tflops / n.matrix_fp16_tflops;
            const double want = fp8_to_fp16_ratio(p.id);
            QVERIFY2(std::abs(ratio / want - 1.0) < 0.01, (p.id + ": fp8 / fp16 is " + std::to_string(ratio) + ", expected " +
                                                           std::to_string(want) + " (2x dense unless listed)")
                                                              .c_str());
        }
        // fp4 is absent, or 2x (Blackwell) to 3x (Blackwell Ultra) fp8: the same tensor cores.
        if (n.matrix_fp4_tflops > 0) {
            QVERIFY2(n.matrix_fp8_tflops > 0, (p.id + ": fp4 without fp8").c_str());
            const double ratio4 = n.matrix_fp4_tflops / n.matrix_fp8_tflops;
            QVERIFY2(ratio4 > 1.96 && ratio4 < 3.06, (p.id + ": fp4 / fp8 = " + std::to_string(ratio4)).c_str());
        }
        QVERIFY2(n.vector_tflops > 0 && n.vector_tflops < n.matrix_fp16_tflops, id);
        // HBM generations from HBM2 to HBM3e give 20-50 GB/s per GiB of capacity.
        const double gbps_per_gib = n.hbm_bandwidth_gbps / n.hbm_capacity_gib;
        QVERIFY2(gbps_per_gib > 15 && gbps_per_gib < 60, (p.id + ": HBM bandwidth per GiB " + std::to_string(gbps_per_gib)).c_str());
        QVERIFY2(n.hbm_capacity_gib >= 16 && n.hbm_capacity_gib <= 512, id);
        // Scale-up is faster than scale-out, and scale-out is at least a 100 Gb/s NIC.
        QVERIFY2(n.scale_up.bandwidth_gbps > n.scale_out.bandwidth_gbps, id);
        QVERIFY2(n.scale_out.bandwidth_gbps >= 12.5, id);
        // The GEMM constants (docs/model.md, "GEMM time"): Hopper's measured (the per-op fit to
        // the shipped H200 table), A100's derived from them by the published max-achievable
        // matmul ratio, Blackwell's fractions still its calibration; one value per generation.
        const bool blackwell = p.id == "dgx-b200" || p.id == "gb200-nvl72" || p.id == "dgx-b300" || p.id == "gb300-nvl72";
        const bool ampere = p.id.rfind("dgx-a100", 0) == 0;
        // The power-limit rule, for every Blackwell board: GB300 has GB200's datasheet peaks under a
        // 1.4 kW instead of a 1.2 kW power limit, DGX B300 B200's under 1.1 kW instead of 1.0 kW, so
        // the sustained clock, and with it both GEMM fractions, scales with the power limit.
        const double clock = p.id == "gb300-nvl72" ? 1400.0 / 1200.0 : p.id == "dgx-b300" ? 1100.0 / 1000.0 : 1.0;
        // CDNA (MI300X, MI325X and MI355X as MI325X): AMD's published max-achievable FLOPs of
        // large GEMMs (hipBLASLt under the power manager's sustained clock) over the dense peak.
        const bool mi300x = p.id == "mi300x-platform", mi325x = p.id == "mi325x-platform" || p.id == "mi355x-platform";
        if (mi300x || mi325x) {
            const double bf16_maf = mi300x ? 708.0 : 843.0, fp8_maf = mi300x ? 1273.0 : 1519.0;  // MI300X / MI325X TFLOP/s
            QVERIFY2(std::abs(n.gemm.max_fraction - bf16_maf / 1307.4) < 3e-3, id);
            QVERIFY2(std::abs(n.gemm.fp8_max_fraction - fp8_maf / 2614.9) < 3e-3, id);
        } else {
            const bool gpu = blackwell || ampere || n.gemm.sms > 0;
            const double fraction = blackwell ? 0.65 : ampere ? 0.695 * 85.9 / 80.1 : gpu ? 0.695 : 0.72;
            QVERIFY2(std::abs(n.gemm.max_fraction - clock * fraction) < 1e-3, id);
        }
        // Every GPU tiles its GEMMs in waves over its SMs with the tile fill, split-K and launch of
        // the measured Hopper fit (the same rule for every GPU: measured on one, derived for the
        // rest); accelerators without SMs (TPU, Trainium, Gaudi) keep one continuous stream.
        if (n.gemm.sms > 0) {
            QCOMPARE(n.gemm.tile_overhead_k, 128.0);
            QCOMPARE(n.gemm.max_split_k, 3);
            QCOMPARE(n.gemm.min_split_k_depth, 64.0);
            QCOMPARE(n.gemm.launch_overhead_us, 2.0);
            if (n.matrix_fp8_tflops > 0) QCOMPARE(n.gemm.fp8_tile_overhead_k, 384.0);
            // Fused attention: Hopper's fitted on the H200 table (fit_node_attention), the rest
            // keep the fill the GEMM tile overhead gave them before.
            const bool hopper = !blackwell && !ampere && !mi300x && !mi325x;
            QCOMPARE(n.attention.fill_keys, hopper ? 352.0 : 256.0);
        }
        QVERIFY2(n.gemm.sms > 0 || !(blackwell || ampere || mi300x || mi325x), id);
        if (blackwell) QVERIFY2(std::abs(n.gemm.fp8_max_fraction - clock * 0.6) < 1e-3, id);
        if (!blackwell && !ampere && !mi300x && !mi325x && n.gemm.sms > 0) QCOMPARE(n.gemm.fp8_max_fraction, 0.655);  // Hopper, measured
        if (blackwell) QCOMPARE(n.gemm.fp4_max_fraction, 0.4);  // set once for the generation (docs/model.md)
        if (n.gemm.fp8_max_fraction > 0) QVERIFY2(n.gemm.fp8_max_fraction <= n.gemm.max_fraction, id);
        QCOMPARE(n.hbm_efficiency, 0.9);
        QCOMPARE(n.scale_up.efficiency, 0.8);
        QCOMPARE(n.scale_out.efficiency, 0.9);
    }
    const NodePreset* nvl72 = find_node(nodes, "gb200-nvl72");
    QVERIFY(nvl72);
    QCOMPARE(nvl72->node.accelerators, 4);
    QCOMPARE(nvl72->node.scale_up.domain_size, 72);
}

void TestPresetLibrary::paperNamesFindTheirNode() {
    std::vector<std::string> errors;
    const auto nodes = load_shipped<NodePreset>("nodes", load_node_preset, errors);
    QVERIFY(errors.empty());
    const std::pair<const char*, const char*> cases[] = {
        {"trained on 1024 A100-SXM4-40GB GPUs", "dgx-a100-40gb"},
        {"a cluster of 8x H200 nodes", "hgx-h200"},
        {"B200 GPUs with NVLink 5", "dgx-b200"},
        {"one GB200 NVL72 rack", "gb200-nvl72"},
        {"AMD MI300X", "mi300x-platform"},
        {"AMD Instinct MI325X", "mi325x-platform"},
        {"Intel Gaudi 3 accelerators", "gaudi3"},
        {"a TPU v5p pod", "tpu-v5p"},
        {"DGX A100 80GB (Selene)", "dgx-a100-80gb"},
        {"a cluster of h100-sxm5-80gb", "dgx-h100"},
        {"DeepSeek-V3 on 2048 H800 GPUs", "h800"},
        {"8x H200 NVL cards with NVLink bridges", "h200-nvl"},
        {"AMD Instinct MI355X", "mi355x-platform"},
        {"a TPU v6e (Trillium) slice", "tpu-v6e"},
        {"an Ironwood superpod", "tpu-v7"},
        {"trained on AWS Trainium2", "trn2"},
        {"one Trn2 UltraServer", "trn2-ultraserver"},
    };
    for (const auto& [text, id] : cases) {
        const NodePreset* p = match_node_preset(nodes, text);
        QVERIFY2(p, text);
        QCOMPARE(QString::fromStdString(p->id), QString::fromLatin1(id));
    }
}

void TestPresetLibrary::modelSizesMatchThePublishedOnes() {
    for (const auto& [id, billions] : published_billions()) {
        const auto m = load_model_preset(presets_dir() / "models" / (id + ".json"));
        QVERIFY2(m.ok(), m.error_text().c_str());
        const double got = total_parameters(m.value->model) / 1e9;
        QVERIFY2(std::abs(got / billions - 1.0) < 0.02,
                 (id + ": " + std::to_string(got) + "B parameters, published " + std::to_string(billions) + "B").c_str());
        QVERIFY2(m.value->info.source.size() >= 150, (id + ": a preset must cite its source in full").c_str());
    }
}

void TestPresetLibrary::moeModelsHaveTheirExperts() {
    for (const auto& [id, billions] : published_active_billions()) {
        const auto m = load_model_preset(presets_dir() / "models" / (id + ".json"));
        QVERIFY2(m.ok(), m.error_text().c_str());
        QVERIFY2(m.value->model.is_moe(), id.c_str());
        const double got = active_parameters(m.value->model) / 1e9;
        QVERIFY2(std::abs(got / billions - 1.0) < 0.02,
                 (id + ": " + std::to_string(got) + "B active parameters, published " + std::to_string(billions) + "B").c_str());
        QVERIFY2(total_parameters(m.value->model) > 3.0 * active_parameters(m.value->model), id.c_str());
    }
    // Every other shipped model is dense, with active == total.
    std::vector<std::string> errors;
    for (const auto& m : load_shipped<ModelPreset>("models", load_model_preset, errors))
        if (!published_active_billions().contains(m.id)) {
            QVERIFY2(!m.model.is_moe(), m.id.c_str());
            QCOMPARE(active_parameters(m.model), total_parameters(m.model));
        }
}

void TestPresetLibrary::everyModelTrainsOnDgxH100() {
    const auto h100 = load_node_preset(presets_dir() / "nodes" / "dgx-h100.json");
    QVERIFY2(h100.ok(), h100.error_text().c_str());
    std::vector<std::string> errors;
    const auto models = load_shipped<ModelPreset>("models", load_model_preset, errors);
    QVERIFY(errors.empty());
    SearchOptions options;
    // Microbatch 1 and no offloading (DGX H100 has no expanded tier): keeps each search fast.
    options.knobs &= ~(knob_bit(Knob::microbatch) | knob_bit(Knob::offload_optimizer) | knob_bit(Knob::offload_weights) |
                       knob_bit(Knob::offload_activations));
    for (const auto& m : models) {
        Config c;
        c.model = m.model;
        c.node = h100.value->node;
        c.cluster.nodes = 64;  // 512 H100
        c.training.global_batch = 1024;
        c.training.precision = Precision::bf16;
        c.training.attention = AttentionKernel::fused;
        c.training.dropout = false;
        c.strategy.microbatch = 1;
        const bool dlrm = m.workload == Workload::dlrm;
        if (dlrm) {  // a DLRM's batch in samples; every GPU data-parallel, its tables sharded
            c.workload = Workload::dlrm;
            c.dlrm = m.dlrm;
            c.strategy.dp = 512;
            c.training.global_batch = 65536;
        }
        const SearchResult r = search(c, options);
        QVERIFY2(r.found(), (m.id + ": no feasible strategy on 64 DGX H100").c_str());
        QVERIFY(r.top.front().result.feasible);
        QVERIFY(r.top.front().result.iteration_s > 0);
        // A DLRM's MFU counts its MLPs only, and most of its time is tables and exchanges.
        QVERIFY2(r.top.front().result.mfu > (dlrm ? 0.001 : 0.05) && r.top.front().result.mfu < 1.0, m.id.c_str());
    }
}

void TestPresetLibrary::shippedScenariosEvaluate() {
    int count = 0;
    for (const auto& e : fs::directory_iterator(presets_dir() / "scenarios")) {
        if (e.path().extension() != ".json") continue;
        const auto s = load_scenario_file(e.path());
        QVERIFY2(s.ok(), s.error_text().c_str());
        const Result r = evaluate(s.value->config);
        QVERIFY2(r.feasible, e.path().c_str());
        QVERIFY(r.iteration_s > 0);
        ++count;
    }
    QVERIFY(count >= 4);
}

void TestPresetLibrary::scenariosMatchTheLibrary() {
    struct Case {
        const char* scenario;
        const char* model;
        const char* node;  // nullptr: the node is a modified copy (checked field by field below)
        long long accelerators;
    };
    const Case cases[] = {
        {"llama3-70b-64xh100", "llama3-70b", "dgx-h100", 64},
        {"gpt3-175b-1024xa100", "gpt3-175b", "dgx-a100-80gb", 1024},
        {"comet-1t-case-study", "megatron-1t", nullptr, 1024},
    };
    for (const Case& c : cases) {
        const auto s = load_scenario_file(presets_dir() / "scenarios" / (std::string(c.scenario) + ".comet.json"));
        QVERIFY2(s.ok(), s.error_text().c_str());
        const auto model = load_model_preset(presets_dir() / "models" / (std::string(c.model) + ".json"));
        QVERIFY2(model.ok(), model.error_text().c_str());
        Scenario rebuilt = *s.value;
        rebuilt.config.model = model.value->model;
        rebuilt.model_info = model.value->info;
        if (c.node) {
            const auto node = load_node_preset(presets_dir() / "nodes" / (std::string(c.node) + ".json"));
            QVERIFY2(node.ok(), node.error_text().c_str());
            rebuilt.config.node = node.value->node;
            rebuilt.node_info = node.value->info;
        }
        QCOMPARE(QString::fromStdString(scenario_to_json(rebuilt)), QString::fromStdString(scenario_to_json(*s.value)));
        QCOMPARE(accelerators_used(s.value->config.strategy), c.accelerators);
        QCOMPARE(static_cast<long long>(s.value->config.cluster.nodes) * s.value->config.node.accelerators, c.accelerators);
    }
    // The case study's node is the DGX A100 40GB preset plus a host-memory tier.
    const auto s = load_scenario_file(presets_dir() / "scenarios" / "comet-1t-case-study.comet.json");
    const auto a100 = load_node_preset(presets_dir() / "nodes" / "dgx-a100-40gb.json");
    QVERIFY(s.ok() && a100.ok());
    NodeSpec n = s.value->config.node;
    QVERIFY(n.expanded.capacity_gib > 0);
    n.expanded = a100.value->node.expanded;
    Scenario a = *s.value, b = *s.value;
    a.config.node = n;
    b.config.node = a100.value->node;
    QCOMPARE(QString::fromStdString(scenario_to_json(a)), QString::fromStdString(scenario_to_json(b)));
}

void TestPresetLibrary::scenarioNodesNamedAfterAPresetAreThatPreset() {
    // A shipped scenario embeds its node. One that carries a preset's name must carry its
    // values too, or a recalibrated preset leaves the scenario (and the README's numbers drawn
    // from it) on the old factors; a modified node says so in its name.
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    QVERIFY(errors.empty());
    int named = 0;
    for (const auto& e : fs::directory_iterator(presets_dir() / "scenarios")) {
        const auto s = load_scenario_file(e.path());
        QVERIFY2(s.ok(), s.error_text().c_str());
        for (const auto& n : nodes) {
            if (n.info.name != s.value->node_info.name) continue;
            ++named;
            const std::string what =
                e.path().filename().string() + ": node '" + n.info.name + "' differs from presets/nodes/" + n.id + ".json";
            QVERIFY2(n.node == s.value->config.node, what.c_str());
            QVERIFY2(n.info.source == s.value->node_info.source, (what + " (its source text)").c_str());
        }
    }
    QVERIFY(named >= 6);
}

void TestPresetLibrary::shippedSweepsLoad() {
    int count = 0;
    for (const auto& e : fs::directory_iterator(presets_dir() / "sweeps")) {
        if (e.path().extension() != ".json") continue;
        const auto s = load_sweep_file(e.path());
        QVERIFY2(s.ok(), s.error_text().c_str());
        QVERIFY2(!s.value->name.empty() && !s.value->description.empty(), e.path().c_str());
        QVERIFY2(evaluate(s.value->scenario.config).feasible, e.path().c_str());
        ++count;
    }
    QVERIFY(count >= 3);
}

// The shipped spine sweep answers its question (issue 14): GPT-3 175B on 1024 DGX A100 takes a
// data-parallel-heavy strategy on a non-blocking fabric; under one-node leaves a 2:1 spine slows
// that strategy and the search moves to fewer data-parallel replicas (more pipeline stages), and
// 4:1 moves it further; leaves of 16 nodes keep the rings' bandwidth and the winner.
void TestPresetLibrary::spineSweepMovesTheSearchOffDataParallelism() {
    const auto f = load_sweep_file(presets_dir() / "sweeps" / "spine-vs-data-parallel.sweep.json");
    QVERIFY2(f.ok(), f.error_text().c_str());
    const SweepSpec& spec = f.value->spec;
    QCOMPARE(spec.x.knob, Knob::scale_out_oversubscription);
    QVERIFY(spec.y && spec.y->knob == Knob::scale_out_leaf_domains);
    const auto index = [](const std::vector<double>& v, double value) {
        return static_cast<int>(std::find(v.begin(), v.end(), value) - v.begin());
    };
    const int x1 = index(spec.x.values, 1), x2 = index(spec.x.values, 2), x4 = index(spec.x.values, 4);
    const int y1 = index(spec.y->values, 1), y16 = index(spec.y->values, 16);
    QVERIFY(x4 < static_cast<int>(spec.x.values.size()) && y16 < static_cast<int>(spec.y->values.size()));
    const SweepResult r = run_sweep(f.value->scenario.config, spec);
    const SweepCell& open = r.at(x1, y1);
    const SweepCell& two = r.at(x2, y1);
    const SweepCell& four = r.at(x4, y1);
    QVERIFY(open.result.feasible && two.result.feasible && four.result.feasible);
    QCOMPARE(open.strategy.dp, 32);
    QVERIFY2(two.strategy.dp < open.strategy.dp, format_strategy(two.strategy).c_str());
    QVERIFY2(four.strategy.dp < two.strategy.dp, format_strategy(four.strategy).c_str());
    QVERIFY(two.result.iteration_s > open.result.iteration_s && four.result.iteration_s > two.result.iteration_s);
    // The non-blocking winner under the 2:1 spine: slower than there, and slower than the
    // strategy the search moved to.
    Config c = f.value->scenario.config;
    set_knob(c, Knob::scale_out_oversubscription, 2);
    set_knob(c, Knob::scale_out_leaf_domains, 1);
    c.strategy = open.strategy;
    const Result kept = evaluate(c);
    QVERIFY(kept.feasible);
    QVERIFY2(kept.iteration_s > open.result.iteration_s && kept.iteration_s > two.result.iteration_s,
             (std::to_string(kept.iteration_s) + " s kept vs " + std::to_string(two.result.iteration_s) + " s moved").c_str());
    QVERIFY(kept.time.dp_comm_s > open.result.time.dp_comm_s);
    // Sixteen nodes per leaf: the rings keep their bandwidth even at 4:1, and the winner stays.
    QCOMPARE(r.at(x4, y16).strategy.dp, open.strategy.dp);
}

QTEST_APPLESS_MAIN(TestPresetLibrary)
#include "test_preset_library.moc"
