// Parameter forms: the field table against check.cpp's rules and the file format, and the
// panel's edit cycle (push, merge, undo, rejection of invalid entries, structural hints,
// presets) on the default scenario.

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFrame>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/workload.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"
#include "forms/dlrm_tables_editor.hpp"
#include "forms/field_table.hpp"
#include "forms/parameter_panel.hpp"

using namespace comet;
using namespace comet::ui;

namespace {

Scenario default_scenario() {
    const auto loaded = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
    if (!loaded.ok()) qFatal("%s", loaded.error_text().c_str());
    return *loaded.value;
}

// The value at a key path of the scenario's JSON file.
QJsonValue json_at(const Scenario& s, const char* path) {
    QJsonValue v = QJsonDocument::fromJson(QByteArray::fromStdString(scenario_to_json(s))).object();
    for (const QString& key : QString::fromLatin1(path).split(u'.')) {
        if (!v.isObject() || !v.toObject().contains(key)) return QJsonValue::Undefined;
        v = v.toObject().value(key);
    }
    return v;
}

// A value of the field other than the current one, inside its range.
double other_value(const FieldSpec& f, const Config& c) {
    const double now = f.get(c);
    switch (f.kind) {
        case FieldKind::boolean:
            return now != 0 ? 0 : 1;
        case FieldKind::choice:
            return now == 0 ? 1 : 0;
        default:
            break;
    }
    const FieldRule* rule = rule_for(QString::fromLatin1(f.path));
    const double candidate = f.kind == FieldKind::integer ? now + 1 : now * 0.5 + 0.25;
    return candidate <= rule->max ? candidate : rule->min + 1;
}

QString plain(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); }

}  // namespace

class TestForms : public QObject {
    Q_OBJECT

private:
    Scenario base_;
    std::unique_ptr<ScenarioDocument> doc_;
    std::unique_ptr<ParameterPanel> panel_;

    template <class W>
    W* editor(const char* path) {
        auto* w = qobject_cast<W*>(panel_->editorFor(QString::fromLatin1(path)));
        if (!w) qFatal("no editor of the expected type for %s", path);
        return w;
    }
    // Starts afresh from `s` (no undo history).
    void reset(const Scenario& s) { doc_->reset(s); }
    Scenario with_16_heads() const {
        Scenario s = base_;
        s.config.model.heads = 16;
        s.config.model.kv_heads = 16;
        return s;
    }
    int undo_count() { return doc_->undoStack()->count(); }

private Q_SLOTS:
    void initTestCase() { base_ = default_scenario(); }

    void init() {
        doc_ = std::make_unique<ScenarioDocument>();
        doc_->reset(base_);
        panel_ = std::make_unique<ParameterPanel>(doc_.get());
        panel_->resize(380, 900);
        panel_->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
    }

    void cleanup() {
        panel_.reset();
        doc_.reset();
    }

    // ---- the table -------------------------------------------------------------------------

    void everyRuleHasAFieldAndBack() {
        for (const FieldRule& r : field_rules()) {
            const FieldSpec* f = find_field(QString::fromLatin1(r.path));
            QVERIFY2(f, r.path);
            QCOMPARE(f->get(base_.config), r.get(base_.config));
        }
        QSet<QString> seen;
        for (const FieldSpec& f : all_fields()) {
            const QString path = QString::fromLatin1(f.path);
            QVERIFY2(!seen.contains(path), f.path);
            seen << path;
            const bool numeric = f.kind == FieldKind::integer || f.kind == FieldKind::real;
            QVERIFY2(!numeric || rule_for(path), f.path);
            QVERIFY2(!f.label.isEmpty() && !f.tooltip.isEmpty(), f.path);
            if (f.kind == FieldKind::choice && rule_for(path)) {
                const FieldRule* r = rule_for(path);
                QCOMPARE(f.choices.size(), qsizetype(r->max - r->min + 1));
            }
        }
    }

    // Files leave out the expert fields of dense models and the context, expert and sharding
    // fields at their neutral values: this scenario has them all.
    void everyFieldPathResolvesInTheFileFormat() {
        Scenario every = base_;
        every.config.model.experts = 8;
        every.config.model.experts_per_token = 2;
        every.config.model.expert_ffn_hidden = 4096;
        every.config.model.shared_experts = 1;
        every.config.model.dense_layers = 1;
        every.config.model.moe_layer_interval = 2;
        every.config.model.capacity_factor = 1.25;
        every.config.strategy.cp = 2;
        every.config.strategy.ep = 4;
        every.config.strategy.etp = 2;
        every.config.strategy.ep_overlap = 0.9;
        every.config.strategy.zero_shard = 4;
        every.config.model.q_lora_rank = 1536;
        every.config.model.kv_lora_rank = 512;
        every.config.model.qk_nope_head_dim = 128;
        every.config.model.qk_rope_head_dim = 64;
        every.config.model.v_head_dim = 128;
        every.config.model.sliding_window = 128;
        every.config.model.full_attention_interval = 2;
        every.config.node.gemm.fp8_max_fraction = 0.6;
        every.config.node.gemm.fp4_max_fraction = 0.4;
        every.config.node.matrix_fp4_tflops = 9000;
        every.config.model.mtp_layers = 1;
        every.config.model.rope_mscale = 1.3466;
        every.config.model.glu_clamp = 7;
        every.config.node.scale_out.rail_only = true;
        every.config.strategy.ep_dispatch = EpDispatch::hierarchical;  // written only when not the default
        every.config.node.attention.max_fraction = 0.7;
        every.config.software.host_op_us = 45;
        every.config.software.weight_bytes = 4;  // the memory layout is written where it is not Megatron-Core's
        every.config.software.master_weights = false;
        every.config.software.moment_bytes = 2;
        every.config.software.logits_bytes = 12;
        every.config.strategy.pipeline_first_layers = 2;
        every.config.strategy.pipeline_last_layers = 2;
        every.config.strategy.embedding_in_pipeline_split = true;
        every.config.strategy.loss_in_pipeline_split = true;
        every.config.strategy.recompute_layers = 1;
        every.config.software.hbm_allocator_margin = 0.04;  // the software's reserve and margin, written where not the default
        every.config.software.hbm_reserved_gib = 1.5;
        every.config.node.attention_flash2 = {0.405, 18, 0.91, 256};
        every.config.node.attention.fill_keys = 96;
        every.config.node.gemm.fp8_tile_overhead_k = 384;
        every.config.node.gemm.sms = 132;
        every.config.node.gemm.max_split_k = 3;
        every.config.node.gemm.min_split_k_depth = 128;
        every.config.node.scale_out.leaf_domains = 16;
        every.config.node.scale_out.oversubscription = 2;
        every.config.node.scale_out.spine_latency_us = 1.5;
        every.config.node.scale_up.switch_allreduce_fraction = 0.61;
        every.config.software.nvls = true;
        // A DLRM's fields live in a DLRM scenario: its shape, and the tables' strategy keys
        // (a transformer's file writes them only when they differ from their neutral values).
        Scenario dlrm = every;
        switch_workload(dlrm.config, Workload::dlrm);
        dlrm.config.dlrm.cross_rank = 256;
        dlrm.config.strategy.emb_placement = EmbeddingPlacement::cached;
        for (const FieldSpec& f : all_fields()) {
            const Scenario& every_of = field_for_workload(f, Workload::transformer) ? every : dlrm;
            const QJsonValue v = json_at(every_of, f.path);
            QVERIFY2(!v.isUndefined(), f.path);
            if (f.kind == FieldKind::boolean) QCOMPARE(v.toBool(), f.get(every_of.config) != 0);
            if (f.kind == FieldKind::integer || f.kind == FieldKind::real) QCOMPARE(v.toDouble(), f.get(every_of.config));
            if (f.kind != FieldKind::choice) continue;
            QSet<QString> names;  // each item writes a different enumeration value at the path
            for (qsizetype i = 0; i < f.choices.size(); ++i) {
                Scenario s = every_of;
                f.set(s.config, double(i));
                names << (v.isString() ? json_at(s, f.path).toString() : QString::number(json_at(s, f.path).toInt()));
            }
            QCOMPARE(names.size(), f.choices.size());
        }
    }

    // A node preset's number shows in full in its editor: a fraction of 0.745 in a two-decimal
    // box would read 0.74 (or round to 0.75 on the first edit of another field).
    void presetValuesFitTheirEditorsPrecision() {
        std::vector<std::string> errors;
        const std::vector<NodePreset> presets = load_node_presets(errors);
        QVERIFY(errors.empty());
        QVERIFY(presets.size() >= 10);
        for (const NodePreset& p : presets) {
            Config c = base_.config;
            c.node = p.node;
            for (const FieldSpec& f : all_fields()) {
                if (f.kind != FieldKind::real || std::string_view(f.path).rfind("node.", 0) != 0) continue;
                const double v = f.get(c);
                const double scale = std::pow(10.0, f.decimals);
                const double shown = std::round(v * scale) / scale;
                QVERIFY2(std::abs(shown - v) <= 1e-9 * std::max(1.0, std::abs(v)),
                         qPrintable(QStringLiteral("%1 %2 = %3 shows as %4")
                                        .arg(QString::fromStdString(p.id), QString::fromLatin1(f.path))
                                        .arg(v, 0, 'g', 12)
                                        .arg(shown)));
            }
        }
    }

    void getOfSetRoundTrips() {
        for (const FieldSpec& f : all_fields()) {
            Config c = base_.config;
            const double x = other_value(f, c);
            QVERIFY2(x != f.get(c), f.path);
            f.set(c, x);
            QVERIFY2(f.get(c) == x, f.path);
            f.set(c, f.get(base_.config));
            QVERIFY2(f.get(c) == f.get(base_.config), f.path);
        }
    }

    void everyFieldHasAnEditorShowingTheDocument() {
        for (const FieldSpec& f : all_fields()) {
            QWidget* w = panel_->editorFor(QString::fromLatin1(f.path));
            QVERIFY2(w, f.path);
            QVERIFY2(!w->toolTip().isEmpty(), f.path);
        }
        QCOMPARE(editor<QDoubleSpinBox>("node.hbm_bandwidth_gbps")->value(), 2039.0);
        QCOMPARE(editor<QSpinBox>("strategy.pp")->value(), 64);
        QCOMPARE(editor<QCheckBox>("model.tied_embeddings")->isChecked(), true);
        QCOMPARE(editor<QComboBox>("strategy.recompute")->currentIndex(), int(Recompute::full));
        QVERIFY(editor<QDoubleSpinBox>("node.hbm_bandwidth_gbps")->text().endsWith(QStringLiteral(" GB/s")));
        QCOMPARE(panel_->editorFor(QStringLiteral("node.nonsense")), nullptr);
        QCOMPARE(editor<QDoubleSpinBox>("node.matrix_fp8_tflops")->text(), QStringLiteral("none"));  // 0 = no fp8
    }

    void tabOrderFollowsTheForm() {
        std::vector<QWidget*> expected{panel_->nodePresetPicker()};
        for (const FieldSpec& f : all_fields()) {
            if (f.group == FieldGroup::model && f.path == std::string_view("workload")) expected.push_back(panel_->modelPresetPicker());
            expected.push_back(panel_->editorFor(QString::fromLatin1(f.path)));
            // The DLRM's list editors follow its last field.
            if (f.path == std::string_view("dlrm.unique_rows_fraction")) {
                const DlrmTablesEditor* t = panel_->dlrmTablesEditor();
                expected.insert(expected.end(), {t->table(), t->addButton(), t->removeButton(), t->bottomMlp(), t->topMlp()});
            }
        }
        for (std::size_t i = 1; i < expected.size(); ++i) {
            QWidget* next = expected[i - 1]->nextInFocusChain();
            while (next != expected[i] && std::find(expected.begin(), expected.end(), next) == expected.end())
                next = next->nextInFocusChain();  // skip the inner line edits of spin boxes
            QVERIFY2(next == expected[i], qPrintable(expected[i]->objectName()));
        }
    }

    // ---- edits -----------------------------------------------------------------------------

    void spinBoxValuePushesOneCommand() {
        editor<QDoubleSpinBox>("node.hbm_bandwidth_gbps")->setValue(2500);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().node.hbm_bandwidth_gbps, 2500.0);
        QCOMPARE(doc_->undoStack()->undoText(), QStringLiteral("Change HBM bandwidth"));
    }

    void typedValueAndEnterPushOneCommand() {
        auto* nodes = editor<QSpinBox>("cluster.nodes");
        nodes->setFocus();
        nodes->selectAll();
        QTest::keyClicks(nodes, QStringLiteral("512"));
        QCOMPARE(undo_count(), 0);  // nothing until Enter
        QTest::keyClick(nodes, Qt::Key_Return);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().cluster.nodes, 512);
    }

    void stepsOnOneFieldMergeIntoOneUndoStep() {
        auto* layers = editor<QSpinBox>("model.layers");
        layers->stepUp();
        layers->stepUp();
        QCOMPARE(doc_->config().model.layers, 130);
        QCOMPARE(undo_count(), 1);
        editor<QSpinBox>("strategy.dp")->stepUp();  // another field: another step
        QCOMPARE(undo_count(), 2);
    }

    void undoRestoresDocumentAndEditor() {
        auto* bw = editor<QDoubleSpinBox>("node.scale_out.bandwidth_gbps");
        bw->setValue(50);
        editor<QCheckBox>("strategy.tp_overlap")->setChecked(true);
        editor<QComboBox>("training.precision")->setCurrentIndex(int(Precision::bf16));
        QCOMPARE(undo_count(), 3);
        QCOMPARE(doc_->config().training.precision, Precision::bf16);
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(editor<QCheckBox>("strategy.tp_overlap")->isChecked(), false);
        QCOMPARE(editor<QComboBox>("training.precision")->currentIndex(), int(Precision::fp16));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->config().node.scale_out.bandwidth_gbps, 25.0);
        QCOMPARE(bw->value(), 25.0);
        QCOMPARE(undo_count(), 3);  // undone, still redoable
        doc_->undoStack()->redo();
        QCOMPARE(bw->value(), 50.0);
    }

    void kvHeadsThatDoNotDivideHeadsAreRejected() {
        reset(with_16_heads());
        const Config before = doc_->config();
        QSignalSpy rejected(panel_.get(), &ParameterPanel::editRejected);
        editor<QSpinBox>("model.kv_heads")->setValue(3);

        Config candidate = before;
        candidate.model.kv_heads = 3;
        const auto errors = check_config(candidate);
        QCOMPARE(errors.size(), std::size_t(1));
        const QString message = QString::fromStdString(errors[0].message());
        QVERIFY(message.contains(QStringLiteral("divisor of model.heads (16)")));

        QCOMPARE(undo_count(), 0);
        QCOMPARE(doc_->config().model.kv_heads, 16);
        QCOMPARE(panel_->markOf(QStringLiteral("model.kv_heads")), ParameterPanel::Mark::error);
        QCOMPARE(panel_->markMessage(QStringLiteral("model.kv_heads")), message);
        QWidget* w = panel_->editorFor(QStringLiteral("model.kv_heads"));
        QCOMPARE(w->property("cometMark").toString(), QStringLiteral("error"));
        auto* frame = w->findChild<QFrame*>(QStringLiteral("markFrame"));
        QVERIFY(frame && frame->isVisible());
        QCOMPARE(frame->geometry(), w->rect());
        QVERIFY(plain(w->toolTip()).startsWith(message));
        QVERIFY(plain(statusOf(w)->text()).contains(message));
        QVERIFY(statusOf(w)->isVisible());
        QCOMPARE(rejected.count(), 1);
        QCOMPARE(editor<QSpinBox>("model.kv_heads")->value(), 3);  // the entry stays for correction

        editor<QSpinBox>("model.kv_heads")->setValue(8);  // a valid value clears the mark
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().model.kv_heads, 8);
        QCOMPARE(panel_->markOf(QStringLiteral("model.kv_heads")), ParameterPanel::Mark::none);
        QCOMPARE(w->property("cometMark").toString(), QString());
        QVERIFY(!frame->isVisible());
        QVERIFY(!statusOf(w)->isVisible());
    }

    void reserveAtOrAboveCapacityIsRejected() {
        const Config before = doc_->config();
        editor<QDoubleSpinBox>("software.hbm_reserved_gib")->setValue(80);
        QCOMPARE(undo_count(), 0);
        QCOMPARE(doc_->config().software.hbm_reserved_gib, before.software.hbm_reserved_gib);
        QCOMPARE(panel_->markOf(QStringLiteral("software.hbm_reserved_gib")), ParameterPanel::Mark::error);
        QVERIFY(panel_->markMessage(QStringLiteral("software.hbm_reserved_gib"))
                    .contains(QStringLiteral("less than node.hbm_capacity_gib (80)")));

        // Lowering the capacity below the reserve: the rule names the reserve; both are marked,
        // and both typed values stay (issue 40: forms never drop a typed value).
        editor<QDoubleSpinBox>("node.hbm_capacity_gib")->setValue(1);
        QCOMPARE(undo_count(), 0);
        QCOMPARE(editor<QDoubleSpinBox>("software.hbm_reserved_gib")->value(), 80.0);
        QCOMPARE(editor<QDoubleSpinBox>("node.hbm_capacity_gib")->value(), 1.0);
        QCOMPARE(panel_->markOf(QStringLiteral("node.hbm_capacity_gib")), ParameterPanel::Mark::error);
        QCOMPARE(panel_->markOf(QStringLiteral("software.hbm_reserved_gib")), ParameterPanel::Mark::error);

        // Another field's valid edit applies on its own; the typed entries stay, still marked.
        editor<QDoubleSpinBox>("node.hbm_bandwidth_gbps")->setValue(3000);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().node.hbm_bandwidth_gbps, 3000.0);
        QCOMPARE(doc_->config().node.hbm_capacity_gib, before.node.hbm_capacity_gib);
        QCOMPARE(editor<QDoubleSpinBox>("node.hbm_capacity_gib")->value(), 1.0);
        QCOMPARE(editor<QDoubleSpinBox>("software.hbm_reserved_gib")->value(), 80.0);
        QCOMPARE(panel_->markOf(QStringLiteral("node.hbm_capacity_gib")), ParameterPanel::Mark::error);

        // The value that makes them consistent applies all of them in one step.
        editor<QDoubleSpinBox>("software.hbm_reserved_gib")->setValue(0.5);
        QCOMPARE(undo_count(), 2);
        QCOMPARE(doc_->config().node.hbm_capacity_gib, 1.0);
        QCOMPARE(doc_->config().software.hbm_reserved_gib, 0.5);
        QCOMPARE(panel_->markOf(QStringLiteral("node.hbm_capacity_gib")), ParameterPanel::Mark::none);
        QCOMPARE(panel_->markOf(QStringLiteral("software.hbm_reserved_gib")), ParameterPanel::Mark::none);

        // Undo is a change the panel did not make: it shows the document's values, nothing pending.
        editor<QDoubleSpinBox>("node.hbm_capacity_gib")->setValue(0.4);  // below the reserve again
        QCOMPARE(editor<QDoubleSpinBox>("node.hbm_capacity_gib")->value(), 0.4);
        doc_->undoStack()->undo();
        QCOMPARE(editor<QDoubleSpinBox>("node.hbm_capacity_gib")->value(), before.node.hbm_capacity_gib);
        QCOMPARE(panel_->markOf(QStringLiteral("node.hbm_capacity_gib")), ParameterPanel::Mark::none);
    }

    // Issue 40: the expanded tier's capacity typed before its bandwidth turned red and then went
    // back to "none" once the bandwidth was typed. It stays typed and is applied with the bandwidth.
    void expandedTierCapacityTypedBeforeItsBandwidthIsKept() {
        QCOMPARE(doc_->config().node.expanded.capacity_gib, 0.0);
        editor<QDoubleSpinBox>("node.expanded.capacity_gib")->setValue(512);
        const Config typed = [this] {
            Config c = doc_->config();
            c.node.expanded.capacity_gib = 512;
            return c;
        }();
        QVERIFY(!check_config(typed).empty());  // a capacity without a bandwidth breaks a rule
        QCOMPARE(undo_count(), 0);
        QCOMPARE(editor<QDoubleSpinBox>("node.expanded.capacity_gib")->value(), 512.0);
        QCOMPARE(panel_->markOf(QStringLiteral("node.expanded.capacity_gib")), ParameterPanel::Mark::error);
        editor<QDoubleSpinBox>("node.expanded.bandwidth_gbps")->setValue(64);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().node.expanded.capacity_gib, 512.0);
        QCOMPARE(doc_->config().node.expanded.bandwidth_gbps, 64.0);
        QCOMPARE(editor<QDoubleSpinBox>("node.expanded.capacity_gib")->value(), 512.0);
        QCOMPARE(panel_->markOf(QStringLiteral("node.expanded.capacity_gib")), ParameterPanel::Mark::none);
        QCOMPARE(panel_->markOf(QStringLiteral("node.expanded.bandwidth_gbps")), ParameterPanel::Mark::none);
    }

    void exclusiveMinimumIsExplained() {
        editor<QDoubleSpinBox>("node.scale_up.bandwidth_gbps")->setValue(0);
        QCOMPARE(undo_count(), 0);
        QVERIFY(panel_->markMessage(QStringLiteral("node.scale_up.bandwidth_gbps")).contains(QStringLiteral("must be > 0")));
    }

    void structuralProblemIsPushedAndHinted() {
        reset(with_16_heads());
        editor<QSpinBox>("strategy.tp")->setValue(3);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().strategy.tp, 3);
        const Result r = evaluate(doc_->config());
        QCOMPARE(r.reason, Infeasible::tp_heads);
        const QString why = QString::fromStdString(explain(r));
        QVERIFY(why.startsWith(QStringLiteral("tensor parallelism does not divide the attention heads")));
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.tp")), ParameterPanel::Mark::hint);
        QCOMPARE(panel_->markMessage(QStringLiteral("strategy.tp")), why);
        QWidget* tp = panel_->editorFor(QStringLiteral("strategy.tp"));
        QCOMPARE(tp->property("cometMark").toString(), QStringLiteral("hint"));
        QVERIFY(plain(tp->toolTip()).startsWith(why));
        QVERIFY(plain(statusOf(tp)->text()).contains(why));
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.pp")), ParameterPanel::Mark::none);

        doc_->undoStack()->undo();  // undo clears the hint
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.tp")), ParameterPanel::Mark::none);
    }

    void otherStructuralProblemsHintTheirFields() {
        editor<QSpinBox>("strategy.dp")->setValue(7);  // 8 x 64 x 7 > 3072 accelerators
        for (const char* p : {"strategy.tp", "strategy.pp", "strategy.dp"})
            QCOMPARE(panel_->markOf(QString::fromLatin1(p)), ParameterPanel::Mark::hint);
        doc_->undoStack()->undo();
        editor<QSpinBox>("strategy.interleave")->setValue(3);  // 64 x 3 does not divide 128 layers
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.pp")), ParameterPanel::Mark::hint);
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.interleave")), ParameterPanel::Mark::hint);
        doc_->undoStack()->undo();
        editor<QCheckBox>("strategy.offload_weights")->setChecked(true);  // no expanded tier
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.offload_weights")), ParameterPanel::Mark::hint);
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.offload_optimizer")), ParameterPanel::Mark::none);
        QCOMPARE(doc_->config().strategy.offload_weights, true);
    }

    // The mixture-of-experts group and the context, expert and sharding fields: shown, the expert
    // fields greyed out while the model is dense, and every edit lands in the scenario's Config.
    void expertAndParallelismFieldsEditTheConfig() {
        QCOMPARE(doc_->config().model.experts, 0);  // the default scenario's model is dense
        const auto boxes = panel_->findChildren<QGroupBox*>();
        QVERIFY(std::any_of(boxes.begin(), boxes.end(), [](QGroupBox* b) { return b->title() == QStringLiteral("Mixture of experts"); }));
        auto* experts = editor<QSpinBox>("model.experts");
        QCOMPARE(experts->text(), QStringLiteral("none (dense)"));
        QVERIFY(experts->isEnabled());
        const char* expert_fields[] = {"model.experts_per_token", "model.expert_ffn_hidden",  "model.shared_experts",
                                       "model.dense_layers",      "model.moe_layer_interval", "model.capacity_factor"};
        for (const char* p : expert_fields) QVERIFY2(!panel_->editorFor(QString::fromLatin1(p))->isEnabled(), p);

        auto* parameters = panel_->findChild<QLabel*>(QStringLiteral("modelParameters"));
        QVERIFY(parameters);
        QCOMPARE(parameters->text(), format_count(total_parameters(doc_->config().model)));

        experts->setValue(8);  // a dense model becomes a mixture of experts in one valid step
        QCOMPARE(undo_count(), 1);
        const ModelSpec& moe = doc_->config().model;
        QVERIFY(active_parameters(moe) < total_parameters(moe));
        QCOMPARE(parameters->text(),
                 QStringLiteral("%1 total, %2 active").arg(format_count(total_parameters(moe)), format_count(active_parameters(moe))));
        QCOMPARE(doc_->config().model.experts, 8);
        QCOMPARE(doc_->config().model.experts_per_token, 2);
        QCOMPARE(doc_->config().model.expert_ffn_hidden, base_.config.model.ffn_hidden);
        for (const char* p : expert_fields) QVERIFY2(panel_->editorFor(QString::fromLatin1(p))->isEnabled(), p);
        QCOMPARE(editor<QSpinBox>("model.experts_per_token")->value(), 2);
        editor<QSpinBox>("model.experts_per_token")->setValue(1);
        QCOMPARE(doc_->config().model.experts_per_token, 1);
        editor<QSpinBox>("model.shared_experts")->setValue(1);
        QCOMPARE(doc_->config().model.shared_experts, 1);
        editor<QDoubleSpinBox>("model.capacity_factor")->setValue(1.25);
        QCOMPARE(doc_->config().model.capacity_factor, 1.25);

        editor<QSpinBox>("strategy.cp")->setValue(2);
        QCOMPARE(doc_->config().strategy.cp, 2);
        editor<QSpinBox>("strategy.ep")->setValue(4);
        QCOMPARE(doc_->config().strategy.ep, 4);
        editor<QSpinBox>("strategy.etp")->setValue(2);
        QCOMPARE(doc_->config().strategy.etp, 2);
        editor<QDoubleSpinBox>("strategy.ep_overlap")->setValue(0.9);
        QCOMPARE(doc_->config().strategy.ep_overlap, 0.9);
        auto* shard = editor<QSpinBox>("strategy.zero_shard");
        QCOMPARE(shard->text(), QStringLiteral("whole DP group"));
        shard->setValue(8);
        QCOMPARE(doc_->config().strategy.zero_shard, 8);
        QCOMPARE(undo_count(), 9);
        QVERIFY(plain(editor<QDoubleSpinBox>("strategy.ep_overlap")->toolTip()).contains(QStringLiteral("Zhang et al., MLSys 2025")));

        while (doc_->undoStack()->canUndo()) doc_->undoStack()->undo();
        QCOMPARE(doc_->config().strategy.cp, 1);
        QCOMPARE(doc_->config().model.experts, 0);
        QCOMPARE(editor<QSpinBox>("strategy.cp")->value(), 1);
        for (const char* p : expert_fields) QVERIFY2(!panel_->editorFor(QString::fromLatin1(p))->isEnabled(), p);
    }

    // Turning the experts on and off again leaves the other expert fields set, but a dense model
    // ignores them: the model still matches its preset.
    void denseModelWithLeftoverExpertFieldsMatchesItsPreset() {
        QComboBox* picker = panel_->modelPresetPicker();
        picker->setCurrentIndex(picker->findText(QStringLiteral("GPT 1.7B (Megatron-LM)")));
        auto* experts = editor<QSpinBox>("model.experts");
        experts->setValue(4);
        QCOMPARE(doc_->config().model.experts_per_token, 2);
        QCOMPARE(picker->currentIndex(), 0);  // a mixture of experts is not the preset
        experts->setValue(0);
        QCOMPARE(doc_->config().model.experts_per_token, 2);  // kept, ignored
        QCOMPARE(picker->currentText(), QStringLiteral("GPT 1.7B (Megatron-LM)"));
        QVERIFY(!panel_->editorFor(QStringLiteral("model.experts_per_token"))->isEnabled());
    }

    // Expert parallelism on a dense model is applied and hinted on the fields behind it.
    void expertParallelismOnADenseModelIsHinted() {
        editor<QSpinBox>("strategy.ep")->setValue(2);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().strategy.ep, 2);
        const Result r = evaluate(doc_->config());
        QCOMPARE(r.reason, Infeasible::ep_dense_model);
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.ep")), ParameterPanel::Mark::hint);
        QCOMPARE(panel_->markOf(QStringLiteral("model.experts")), ParameterPanel::Mark::hint);
        QCOMPARE(panel_->markMessage(QStringLiteral("strategy.ep")), QString::fromStdString(explain(r)));
        QCOMPARE(panel_->markOf(QStringLiteral("strategy.tp")), ParameterPanel::Mark::none);
    }

    void nodePresetReplacesTheNodeInOneStep() {
        QComboBox* picker = panel_->nodePresetPicker();
        QCOMPARE(picker->currentText(), QStringLiteral("DGX A100 80GB"));  // the default's node matches
        const int h100 = picker->findText(QStringLiteral("DGX H100"));
        QVERIFY(h100 > 0);
        picker->setCurrentIndex(h100);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().node.matrix_fp16_tflops, 989.0);
        QCOMPARE(doc_->scenario().node_info.name, std::string("DGX H100"));
        QCOMPARE(editor<QDoubleSpinBox>("node.matrix_fp8_tflops")->value(), 1979.0);
        QVERIFY(plain(picker->toolTip()).contains(QStringLiteral("NVIDIA DGX H100 datasheet")));
        QCOMPARE(doc_->undoStack()->undoText(), QStringLiteral("Use node preset DGX H100"));
        QCOMPARE(doc_->config().strategy.tp, base_.config.strategy.tp);  // the rest stays

        doc_->undoStack()->undo();
        QCOMPARE(doc_->config().node.matrix_fp16_tflops, 312.0);
        QCOMPARE(doc_->scenario().node_info.name, base_.node_info.name);
        QCOMPARE(picker->currentText(), QStringLiteral("DGX A100 80GB"));

        editor<QDoubleSpinBox>("node.hbm_capacity_gib")->setValue(96);  // a custom node
        QCOMPARE(picker->currentIndex(), 0);
    }

    void modelPresetReplacesTheModel() {
        QComboBox* picker = panel_->modelPresetPicker();
        const int small = picker->findText(QStringLiteral("GPT 1.7B (Megatron-LM)"));
        QVERIFY(small > 0);
        QCOMPARE(small, 1);  // sorted by size
        picker->setCurrentIndex(small);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->scenario().model_info.name, std::string("GPT 1.7B (Megatron-LM)"));
        QCOMPARE(editor<QSpinBox>("model.layers")->value(), doc_->config().model.layers);
    }

    // The workload switch: a DLRM hides the transformer's shape and model-parallel knobs and shows
    // its own group with the table editor; one undo step goes back.
    void workloadSwitchShowsTheDlrmForms() {
        const auto visible = [&](const char* path) { return panel_->editorFor(QString::fromLatin1(path))->isVisibleTo(panel_.get()); };
        QVERIFY(visible("model.layers") && visible("strategy.tp") && !visible("dlrm.dense_features") && !visible("strategy.emb_sharding"));
        QVERIFY(!panel_->dlrmTablesEditor()->isVisibleTo(panel_.get()));
        editor<QComboBox>("workload")->setCurrentIndex(1);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().workload, Workload::dlrm);
        QCOMPARE(doc_->config().dlrm, mlperf_dcnv2_dlrm());
        QCOMPARE(doc_->config().strategy.dp, 384 * 8);
        QVERIFY(!visible("model.layers") && !visible("strategy.tp") && !visible("strategy.microbatch"));
        QVERIFY(visible("dlrm.dense_features") && visible("strategy.emb_sharding") && visible("strategy.dp"));
        QVERIFY(panel_->dlrmTablesEditor()->isVisibleTo(panel_.get()));
        QCOMPARE(panel_->dlrmTablesEditor()->table()->rowCount(), 26);
        QCOMPARE(editor<QSpinBox>("training.global_batch")->suffix(), QStringLiteral(" samples"));
        QVERIFY(panel_->parametersText().startsWith(QStringLiteral("26 tables, 204.2 M rows")));
        doc_->undoStack()->undo();
        QCOMPARE(doc_->config().workload, Workload::transformer);
        QVERIFY(visible("model.layers"));
    }

    // Two DLRMs share every model. field: the picker names the one whose tables are loaded, and
    // none once a table is edited (issue 40: it named the MLPerf model with the 2 TB one loaded).
    void modelPickerNamesTheLoadedDlrm() {
        const auto loaded = load_scenario_file(presets_dir() / "scenarios" / "dlrm-2tb-memory-expansion.comet.json");
        QVERIFY(loaded.value);
        reset(*loaded.value);
        QComboBox* picker = panel_->modelPresetPicker();
        QCOMPARE(picker->currentText(), QStringLiteral("Synthetic industrial DLRM (about 2 TB of rows)"));
        picker->setCurrentIndex(picker->findText(QStringLiteral("DLRM-DCNv2 (MLPerf Training)")));
        QCOMPARE(doc_->config().dlrm, mlperf_dcnv2_dlrm());
        QCOMPARE(picker->currentText(), QStringLiteral("DLRM-DCNv2 (MLPerf Training)"));
        panel_->dlrmTablesEditor()->table()->item(0, 1)->setText(QStringLiteral("80000000"));
        QCOMPARE(doc_->config().dlrm.tables[0].rows, 8e7);
        QCOMPARE(picker->currentIndex(), 0);  // an edited DLRM is no preset
        doc_->undoStack()->undo();
        QCOMPARE(picker->currentText(), QStringLiteral("DLRM-DCNv2 (MLPerf Training)"));
    }

    // The table editor: a valid cell edit is one undoable change; text that is not a number, or a
    // value the range rules refuse, changes nothing and says why.
    void dlrmTableEditsAreCheckedAndUndoable() {
        Scenario s = base_;
        switch_workload(s.config, Workload::dlrm);
        s.config.training.global_batch = 65536;
        reset(s);
        DlrmTablesEditor* t = panel_->dlrmTablesEditor();
        t->table()->item(0, 1)->setText(QStringLiteral("80,000,000"));  // rows of the first table
        QCOMPARE(undo_count(), 1);
        QCOMPARE(doc_->config().dlrm.tables[0].rows, 8e7);
        QCOMPARE(t->table()->item(0, 1)->text(), QStringLiteral("8e7"));  // shorter, whole in a narrow column
        t->table()->item(0, 2)->setText(QStringLiteral("wide"));
        QCOMPARE(undo_count(), 1);
        QVERIFY2(t->errorText().contains(QStringLiteral("Table group 1, dim: “wide” is not a whole number")), qPrintable(t->errorText()));
        QCOMPARE(t->table()->item(0, 2)->text(), QStringLiteral("128"));
        t->table()->item(1, 3)->setText(QStringLiteral("0"));  // pooling 0
        QCOMPARE(undo_count(), 1);
        QVERIFY2(t->errorText().contains(QStringLiteral("dlrm.tables[1].pooling = 0: must be > 0")), qPrintable(t->errorText()));
        t->bottomMlp()->setText(QStringLiteral("512, 256.5"));
        Q_EMIT t->bottomMlp()->editingFinished();
        QVERIFY2(t->errorText().contains(QStringLiteral("Bottom MLP: “256.5” is not a whole number")), qPrintable(t->errorText()));
        t->bottomMlp()->setText(QStringLiteral("1024, 256, 128"));
        Q_EMIT t->bottomMlp()->editingFinished();
        QCOMPARE(undo_count(), 2);
        QCOMPARE(doc_->config().dlrm.bottom_mlp[0], 1024);
        QVERIFY(t->errorText().isEmpty());
        t->addButton()->click();
        QCOMPARE(doc_->config().dlrm.table_groups, 27);
        t->table()->setCurrentCell(26, 0);
        t->removeButton()->click();
        QCOMPARE(doc_->config().dlrm.table_groups, 26);
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        doc_->undoStack()->undo();
        QCOMPARE(doc_->config().dlrm.bottom_mlp[0], 512);
        // Rows from a million up are shown in the shorter exact form, whole (issue 40: "2000000…").
        QCOMPARE(t->table()->item(0, 1)->text(), QStringLiteral("8e7"));
        QCOMPARE(t->table()->item(0, 1)->toolTip(), QStringLiteral("80,000,000"));
        t->table()->item(0, 1)->setText(QStringLiteral("2000000000"));
        QCOMPARE(doc_->config().dlrm.tables[0].rows, 2e9);
        QCOMPARE(t->table()->item(0, 1)->text(), QStringLiteral("2e9"));
        t->table()->item(0, 1)->setText(QStringLiteral("39884406"));
        QCOMPARE(t->table()->item(0, 1)->text(), QStringLiteral("39884406"));  // as short as it gets
        t->table()->item(0, 1)->setText(QStringLiteral("2.5e8"));
        QCOMPARE(t->table()->item(0, 1)->text(), QStringLiteral("2.5e8"));
        QCOMPARE(doc_->config().dlrm.tables[0].rows, 2.5e8);
        QCOMPARE(t->table()->item(0, 2)->text(), QStringLiteral("128"));  // below a million: as typed
    }

    void focusFieldScrollsAndFocuses() {
        QScrollArea area;  // as in the main window
        area.setWidgetResizable(true);
        auto* panel = new ParameterPanel(doc_.get());
        area.setWidget(panel);
        area.resize(380, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        area.activateWindow();
        panel->focusField(QStringLiteral("strategy.zero_stage"));
        QTRY_VERIFY(panel->editorFor(QStringLiteral("strategy.zero_stage"))->hasFocus());
        QVERIFY(area.verticalScrollBar()->value() > 0);
    }

    void wheelOverAnUnfocusedFieldScrollsTheForm() {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* panel = new ParameterPanel(doc_.get());
        area.setWidget(panel);
        area.resize(380, 400);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        auto* accel = qobject_cast<QSpinBox*>(panel->editorFor(QStringLiteral("node.accelerators")));
        QVERIFY(!accel->hasFocus());
        const QPointF at(accel->width() / 2.0, accel->height() / 2.0);
        QWheelEvent down(at, accel->mapToGlobal(at), {}, {0, -120}, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(accel, &down);
        QCOMPARE(accel->value(), 8);
        QVERIFY(area.verticalScrollBar()->value() > 0);
        QComboBox* picker = panel->nodePresetPicker();  // a wheel must not swap the node, even with focus
        picker->setFocus();
        QWheelEvent over_picker({5, 5}, picker->mapToGlobal(QPointF(5, 5)), {}, {0, -120}, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                                false);
        QApplication::sendEvent(picker, &over_picker);
        QCOMPARE(picker->currentText(), QStringLiteral("DGX A100 80GB"));
        QCOMPARE(undo_count(), 0);
    }

    // Latent attention: its group is greyed out until the KV latent rank is set, which fills in
    // DeepSeek's head proportions; a bad value is marked at its field and not applied.
    void latentAttentionGroupAndInvalidValue() {
        const char* mla_fields[] = {"model.q_lora_rank", "model.qk_nope_head_dim", "model.qk_rope_head_dim", "model.v_head_dim"};
        for (const char* p : mla_fields) QVERIFY2(!panel_->editorFor(QString::fromLatin1(p))->isEnabled(), p);
        QVERIFY(!panel_->editorFor(QStringLiteral("model.full_attention_interval"))->isEnabled());
        auto* rank = editor<QSpinBox>("model.kv_lora_rank");
        QCOMPARE(rank->text(), QStringLiteral("off"));
        rank->setValue(512);
        QCOMPARE(undo_count(), 1);
        const ModelSpec& m = doc_->config().model;
        QVERIFY(m.is_mla());
        QCOMPARE(m.qk_nope_head_dim, base_.config.model.head_dim);
        QCOMPARE(m.qk_rope_head_dim, base_.config.model.head_dim / 2);
        QCOMPARE(m.v_head_dim, base_.config.model.head_dim);
        for (const char* p : mla_fields) QVERIFY2(panel_->editorFor(QString::fromLatin1(p))->isEnabled(), p);
        editor<QSpinBox>("model.v_head_dim")->setValue(0);  // MLA needs value heads
        QCOMPARE(doc_->config().model.v_head_dim, base_.config.model.head_dim);
        QCOMPARE(undo_count(), 1);
        QCOMPARE(panel_->markOf(QStringLiteral("model.v_head_dim")), ParameterPanel::Mark::error);
        QVERIFY(panel_->markMessage(QStringLiteral("model.v_head_dim")).contains(QStringLiteral("model.v_head_dim = 0")));
        editor<QSpinBox>("model.sliding_window")->setValue(128);
        QVERIFY(panel_->editorFor(QStringLiteral("model.full_attention_interval"))->isEnabled());
        QCOMPARE(editor<QComboBox>("training.precision")->itemText(int(Precision::mxfp8)), QStringLiteral("MXFP8"));
    }

    // The strategy form shows the layers per stage, uneven where pp does not divide them.
    void stageLayoutFollowsTheStrategy() {
        auto* stages = panel_->findChild<QLabel*>(QStringLiteral("stageLayout"));
        QVERIFY(stages);
        QCOMPARE(stages->text(), QStringLiteral("Stages: 2 × 64 layers"));  // 128 layers, pp 64
        Scenario s = base_;
        s.config.model.layers = 126;  // Llama 3.1 405B at pp 8, v 1, embedding and loss counted
        s.config.strategy.pp = 8;
        s.config.strategy.interleave = 1;
        s.config.strategy.embedding_in_pipeline_split = true;
        s.config.strategy.loss_in_pipeline_split = true;
        reset(s);
        QCOMPARE(stages->text(), QStringLiteral("Stages: 15 | 16 × 6 | 15 layers"));
        editor<QSpinBox>("strategy.pipeline_first_layers")->setValue(13);  // 113 layers do not split over 7 stages
        QCOMPARE(doc_->config().strategy.pipeline_first_layers, 13);
        QVERIFY2(stages->text().contains(QStringLiteral("cannot be laid out")), qPrintable(stages->text()));
    }

    // Under the node preset: how that hardware validates against published runs.
    void nodePresetSaysHowItValidates() {
        QComboBox* picker = panel_->nodePresetPicker();
        picker->setCurrentIndex(picker->findText(QStringLiteral("DGX H100")));
        QTRY_VERIFY_WITH_TIMEOUT(panel_->validationText().startsWith(QStringLiteral("DGX H100: 18 published runs")), 30000);
        auto* label = panel_->findChild<QLabel*>(QStringLiteral("nodeValidation"));
        QVERIFY(label && label->isVisible());
        picker->setCurrentIndex(picker->findText(QStringLiteral("Google Cloud TPU v5p (4-chip host, 4x4x4 ICI cube)")));
        QVERIFY2(panel_->validationText().contains(QStringLiteral("not validated")), qPrintable(panel_->validationText()));
        editor<QDoubleSpinBox>("node.hbm_bandwidth_gbps")->setValue(1234);  // no preset matches an edited node
        QVERIFY2(panel_->validationText().startsWith(QStringLiteral("Edited node: not validated")), qPrintable(panel_->validationText()));
    }

    // Under the software preset: how that software validates over every hardware and on this node.
    void softwarePresetSaysHowItValidates() {
        QComboBox* nodes = panel_->nodePresetPicker();
        auto* software = panel_->findChild<QComboBox*>(QStringLiteral("softwarePresetPicker"));
        QVERIFY(software);
        nodes->setCurrentIndex(nodes->findText(QStringLiteral("GB200 NVL72 (one 4-GPU compute tray of a 72-GPU NVLink domain)")));
        software->setCurrentIndex(software->findText(QStringLiteral("Megatron-Bridge, TE graphs")));
        QCOMPARE(doc_->config().software.graph_scope, GraphScope::dense);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel_->softwareValidationText().startsWith(QStringLiteral("Megatron-Bridge, TE graphs: 27 published runs")), 30000);
        QVERIFY2(panel_->softwareValidationText().contains(QStringLiteral(", signed -")), qPrintable(panel_->softwareValidationText()));
        QVERIFY2(panel_->softwareValidationText().contains(
                     QStringLiteral(". On GB200 NVL72 (one 4-GPU compute tray of a 72-GPU NVLink domain): ")),
                 qPrintable(panel_->softwareValidationText()));
        nodes->setCurrentIndex(nodes->findText(QStringLiteral("DGX H100")));  // no published run of this software there
        QVERIFY2(panel_->softwareValidationText().endsWith(QStringLiteral(". On DGX H100: no published run")),
                 qPrintable(panel_->softwareValidationText()));
        editor<QDoubleSpinBox>("software.host_op_us")->setValue(33);  // no preset matches an edited stack
        QVERIFY2(panel_->softwareValidationText().startsWith(QStringLiteral("Edited software: not validated")),
                 qPrintable(panel_->softwareValidationText()));
    }

    void fitsANarrowColumn() {
        QVERIFY(panel_->minimumSizeHint().width() <= 360);  // the main window's column is about 380 px
    }

    void compactModeIsShorter() {
        const int normal = panel_->sizeHint().height();
        panel_->setCompact(true);
        QVERIFY(panel_->isCompact());
        QVERIFY(panel_->sizeHint().height() < normal);
        panel_->setCompact(false);
        QCOMPARE(panel_->sizeHint().height(), normal);
    }

    // Saves a picture of the panel when COMET_FORMS_SCREENSHOT names a file.
    void screenshot() {
        const QString file = qEnvironmentVariable("COMET_FORMS_SCREENSHOT");
        if (file.isEmpty()) QSKIP("set COMET_FORMS_SCREENSHOT=file.png to save a picture");
        panel_->hide();
        QScrollArea area;
        area.setWidgetResizable(true);
        area.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        auto* panel = new ParameterPanel(doc_.get());
        area.setWidget(panel);
        area.resize(380, 900);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        reset(with_16_heads());
        qobject_cast<QSpinBox*>(panel->editorFor(QStringLiteral("strategy.tp")))->setValue(3);
        qobject_cast<QSpinBox*>(panel->editorFor(QStringLiteral("model.kv_heads")))->setValue(3);
        // Show the model, training and strategy groups, where the marks are.
        const auto boxes = panel->findChildren<QGroupBox*>();
        area.verticalScrollBar()->setValue(boxes[int(FieldGroup::model)]->y() - 4);
        QVERIFY(area.grab().save(file));
        for (qsizetype i = 0; i < boxes.size(); ++i)  // each group at full resolution
            QVERIFY(boxes[i]->grab().save(QString(file).replace(QStringLiteral(".png"), QStringLiteral("-group%1.png").arg(i))));
        QWidget full;  // the whole column at the same width
        auto* copy = new ParameterPanel(doc_.get(), &full);
        copy->resize(380 - area.verticalScrollBar()->sizeHint().width(), copy->sizeHint().height());
        QVERIFY(copy->grab().save(QString(file).replace(QStringLiteral(".png"), QStringLiteral("-full.png"))));
    }

private:
    static QLabel* statusOf(QWidget* editor) {
        for (QWidget* p = editor->parentWidget(); p; p = p->parentWidget())
            if (auto* box = qobject_cast<QGroupBox*>(p)) return box->findChild<QLabel*>(QStringLiteral("status"));
        return nullptr;
    }
};

QTEST_MAIN(TestForms)
#include "test_forms.moc"
