#pragma once
// Shared inputs and helpers of the GUI tests: a small heatmap, file helpers and the poppler
// tools that check exported PDFs.

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <limits>

#include "comet/presets.hpp"
#include "heatmap/heatmap_data.hpp"

namespace comet::test {

// A test process that opens the explorer window keeps its settings and autosaves in a folder of
// its own, made fresh for the run: an autosave that a killed earlier run left in the shared test
// location would open the crash-restore box, which is modal, in front of every window, and the
// window's shortcuts would then do nothing (it failed Ctrl+Z and the presentation keys in CI).
inline void isolate_user_state(const QString& app_name) {
    static QTemporaryDir home;
    QVERIFY2(home.isValid(), qPrintable(home.errorString()));
    qputenv("HOME", home.path().toLocal8Bit());
    qputenv("COMET_AUTOSAVE_DIR", QDir(home.path()).filePath(QStringLiteral("autosave")).toLocal8Bit());
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("comet-explorer-test"));
    QCoreApplication::setApplicationName(app_name);
}

// A 4 x 3 grid: (1, 1) infeasible ("does not fit in HBM"), current (0, 0), best (3, 2).
inline ui::HeatmapData small_heatmap() {
    ui::HeatmapData d;
    d.nx = 4;
    d.ny = 3;
    d.x_values = {1000, 2000, 4000, 8000};
    d.y_values = {12.5, 25, 50};
    d.x_label = QStringLiteral("HBM bandwidth (GB/s)");
    d.y_label = QStringLiteral("Scale-out bandwidth (GB/s)");
    d.metric = ui::Metric::iteration_time;
    for (int iy = 0; iy < d.ny; ++iy) {
        for (int ix = 0; ix < d.nx; ++ix) {
            ui::HeatmapCell c;
            c.value = 10.0 - ix - iy;
            c.tooltip = QStringLiteral("cell %1 %2").arg(ix).arg(iy);
            d.cells.push_back(c);
        }
    }
    ui::HeatmapCell& bad = d.cells[1 * 4 + 1];
    bad.value = std::numeric_limits<double>::quiet_NaN();
    bad.feasible = false;
    bad.reason = QStringLiteral("does not fit in HBM");
    d.current = ui::CellIndex{0, 0};
    d.best = ui::CellIndex{3, 2};
    return d;
}

// Mixtral 8x7B (8 experts, top-2, SwiGLU experts of 14336) on 8 DGX H100, with context and
// expert parallelism: tp 2 x cp 2 x dp 16, ep 8, so that every part of the breakdown, EP
// all-to-all and CP ring exchange included, is there. The MoE structure is set here, whether or
// not the preset has it yet.
inline Config moe_config() {
    Config c;
    const auto node = find_node_preset("dgx-h100");
    const auto model = find_model_preset("mixtral-8x7b");
    if (!node || !model) qFatal("presets dgx-h100 and mixtral-8x7b are needed (COMET_PRESETS_DIR)");
    c.node = node->node;
    c.model = model->model;
    c.model.ffn_hidden = 14336;
    c.model.experts = 8;
    c.model.experts_per_token = 2;
    c.model.expert_ffn_hidden = 14336;
    c.model.shared_experts = 0;
    c.model.dense_layers = 0;
    c.model.moe_layer_interval = 1;
    c.model.capacity_factor = 1.0;
    c.model.seq_len = 4096;
    c.cluster.nodes = 8;
    c.training.global_batch = 256;
    c.training.attention = AttentionKernel::fused;
    c.strategy.tp = 2;
    c.strategy.cp = 2;
    c.strategy.pp = 1;
    c.strategy.dp = 16;
    c.strategy.ep = 8;
    c.strategy.etp = 1;
    c.strategy.ep_overlap = 0.5;
    c.strategy.microbatch = 1;
    c.strategy.sequence_parallel = true;
    c.strategy.recompute = Recompute::selective;
    c.strategy.zero_stage = 1;
    return c;
}

inline QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline void write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Runs a poppler tool (pdftotext, pdftoppm, pdfinfo) and returns its output; fails the test
// (never skips) when the tool is missing or fails, since CI must check PDFs.
inline QByteArray run_tool(const QString& tool, const QStringList& args) {
    const QString exe = QStandardPaths::findExecutable(tool);
    if (exe.isEmpty()) {
        QTest::qFail(qPrintable(tool + " not found: run packaging/install-deps.sh (poppler-utils)"), __FILE__, __LINE__);
        return {};
    }
    QProcess p;
    p.start(exe, args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        QTest::qFail(qPrintable(tool + " failed: " + QString::fromLocal8Bit(p.readAllStandardError())), __FILE__, __LINE__);
        return {};
    }
    return p.readAllStandardOutput();
}

}  // namespace comet::test
