// The charts (breakdown, memory, sensitivity tornado, time/cost Pareto): the library-free models,
// then the Qt Charts widgets behind chart_views.hpp (series contents, text drawn, legend, empty
// state, pixels, image and SVG export, tooltips).

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <limits>
#include <set>

#include "charts/chart_model.hpp"
#include "charts/chart_views.hpp"
#include "comet/evaluate.hpp"
#include "comet/fsdp.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"
#include "export/chart_export.hpp"
#include "ui_fixtures.hpp"

using namespace comet;
using namespace comet::ui;

namespace {

// Shaped like the default scenario (Megatron 1T): compute dominates, memory time is zero.
TimeBreakdown big_iteration() {
    TimeBreakdown t;
    t.compute_s = 87.162;
    t.bubble_s = 5.832;
    t.tp_comm_s = 5.555;
    t.pp_comm_s = 2.068;
    t.dp_comm_s = 0.55621;
    t.optimizer_s = 0.03494;
    t.other_s = 0.03031;
    return t;
}

MemoryFootprint hbm(double weights_gib, double activations_gib, double capacity_gib) {
    MemoryFootprint m;
    m.weights_bytes = units::gib_to_bytes(weights_gib);
    m.gradients_bytes = units::gib_to_bytes(2 * weights_gib);
    m.optimizer_bytes = units::gib_to_bytes(6 * weights_gib);
    m.activations_bytes = units::gib_to_bytes(activations_gib);
    m.other_bytes = units::gib_to_bytes(2);
    m.margin_bytes = units::gib_to_bytes(0.05 * capacity_gib);
    m.capacity_bytes = units::gib_to_bytes(capacity_gib);
    return m;
}

const StackSeries& series_named(const StackedBarsModel& m, const QString& name) {
    for (const StackSeries& s : m.series)
        if (s.name == name) return s;
    qFatal("no series %s", qPrintable(name));
}

QChart* chart_of(QWidget* w) {
    auto* view = qobject_cast<QChartView*>(w);
    if (!view) view = w->findChild<QChartView*>();
    return view ? view->chart() : nullptr;
}

QHorizontalStackedBarSeries* bars_of(QChart* chart) {
    for (QAbstractSeries* s : chart->series())
        if (auto* b = qobject_cast<QHorizontalStackedBarSeries*>(s)) return b;
    return nullptr;
}

QBarSet* set_named(QChart* chart, const QString& name) {
    for (QBarSet* set : bars_of(chart)->barSets())
        if (set->label() == name) return set;
    return nullptr;
}

// Legend markers are laid out (and made visible) only once the chart has a real size.
void show_sized(QWidget* w) {
    w->resize(700, 360);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
}

// The legend is drawn as overlay items (it wraps in narrow panes); read it top to bottom, left to right.
QStringList visible_legend(QChart* chart) {
    QCoreApplication::processEvents();
    QList<QGraphicsSimpleTextItem*> items;
    for (QGraphicsItem* item : chart->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->data(0) == "legend") items << t;
    std::sort(items.begin(), items.end(), [](auto* a, auto* b) { return std::pair(a->y(), a->x()) < std::pair(b->y(), b->x()); });
    QStringList out;
    for (auto* t : items) out << t->text();
    return out;
}

bool shows_no_data(QChart* chart) {
    for (QGraphicsItem* item : chart->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->text() == "No data") return true;
    return false;
}

// Visible overlay texts that are not legend entries (value labels, point labels, messages).
QList<QGraphicsSimpleTextItem*> visible_texts(QChart* chart) {
    QCoreApplication::processEvents();
    QList<QGraphicsSimpleTextItem*> items;
    for (QGraphicsItem* item : chart->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->data(0) != "legend") items << t;
    return items;
}

QGraphicsSimpleTextItem* text_item(QChart* chart, const QString& text) {
    for (auto* t : visible_texts(chart))
        if (t->text() == text) return t;
    return nullptr;
}

bool shows_message(QChart* chart, const QString& message) { return text_item(chart, message) != nullptr; }

// The texts Qt Charts draws itself (title, axis labels), as plain text with every run of white
// space (line breaks of wrapped labels, no-break spaces) as one space.
QStringList drawn_chart_texts(QChart* chart) {
    QCoreApplication::processEvents();
    QStringList out;
    for (QGraphicsItem* item : chart->scene()->items())
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && !t->toPlainText().trimmed().isEmpty())
            out << t->toPlainText().replace(QChar(0x2028), QLatin1Char(' ')).replace(QChar(0x00A0), QLatin1Char(' ')).simplified();
    return out;
}

constexpr QChar minus(0x2212);

// The percent text a tornado bar end should carry, computed here from the times: one decimal,
// or two significant digits below 0.1 %.
QString expected_percent(double time_s, double base_s) {
    const double pct = 100.0 * (time_s - base_s) / base_s;
    const double a = std::abs(pct);
    return (pct > 0 ? QString("+") : minus) + (a >= 0.095 ? QString::number(a, 'f', 1) : QString::number(a, 'g', 2)) + " %";
}

SensitivityBar sensitivity_bar(Knob knob, double base_value, double time_low_s, double time_high_s, double base_s = 80) {
    SensitivityBar b;
    b.knob = knob;
    b.base_value = base_value;
    b.low_value = 0.9 * base_value;
    b.high_value = 1.1 * base_value;
    b.base_time_s = base_s;
    b.base_feasible = true;
    b.time_low_s = time_low_s;
    b.time_high_s = time_high_s;
    b.low_feasible = b.high_feasible = true;
    b.effect_s = std::max(std::abs(time_low_s - base_s), std::abs(time_high_s - base_s));
    return b;
}

// Sorted by effect as comet::sensitivity returns them; HBM capacity at -10 % does not fit.
std::vector<SensitivityBar> tornado_bars() {
    SensitivityBar capacity = sensitivity_bar(Knob::hbm_gib, 80, 0, 79.7);
    capacity.low_feasible = false;
    capacity.effect_s = std::numeric_limits<double>::infinity();
    return {capacity, sensitivity_bar(Knob::hbm_gbps, 2039, 86.64, 75.92), sensitivity_bar(Knob::scale_out_gbps, 25, 83.3, 77.5),
            sensitivity_bar(Knob::scale_up_latency_us, 2, 79.96, 80.04)};
}

ParetoPoint pareto_point(const char* label, double time_s, double cost_usd, bool feasible = true) {
    ParetoPoint p;
    p.label = label;
    p.time_to_train_s = time_s;
    p.cost_usd = cost_usd;
    p.feasible = feasible;
    p.strategy.tp = 8;
    p.strategy.pp = 16;
    p.strategy.dp = 3;
    return p;
}

constexpr double day_s = 86400;

// Six cluster sizes, three of them on the front, and one that fits nowhere.
std::vector<ParetoPoint> cluster_points() {
    return pareto_front({pareto_point("24 nodes", 0, 0, false), pareto_point("48 nodes", 250 * day_s, 11.0e6),
                         pareto_point("96 nodes", 121 * day_s, 10.3e6), pareto_point("192 nodes", 62 * day_s, 10.5e6),
                         pareto_point("384 nodes", 33 * day_s, 11.2e6), pareto_point("768 nodes", 35 * day_s, 21.9e6),
                         pareto_point("1536 nodes", 36 * day_s, 44e6)});
}

// Pixels of exactly `color` (bar interiors are not antialiased).
qsizetype pixels_of(const QImage& image, const QColor& color) {
    qsizetype n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixelColor(x, y) == color) ++n;
    return n;
}

double non_white_share(const QImage& image) {
    qsizetype n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) != qRgb(255, 255, 255)) ++n;
    return static_cast<double>(n) / (static_cast<double>(image.width()) * image.height());
}

bool near(double a, double b, double rel = 1e-12) { return std::fabs(a - b) <= rel * std::max(1.0, std::fabs(b)); }

FsdpPoint fsdp_point(int dp, double needed, double allowed, int microbatch = 1, Infeasible reason = Infeasible::none) {
    FsdpPoint p;
    p.dp = dp;
    p.gpus = 16LL * dp;
    p.tokens_to_hide = needed;
    p.max_tokens_hbm = allowed;
    p.max_microbatch = microbatch;
    p.fsdp_comm_s = 0.02;
    p.compute_s_per_token = 1e-6;
    p.reason = reason;
    return p;
}

// Five sizes on 16 GPUs per replica: no sequence fits at dp 2, exposed at dp 4, hidden at dp 8 and
// 16 (HBM allows 20 times what is needed there: a log axis), and dp 32 cannot run.
std::vector<FsdpPoint> fsdp_points() {
    return {fsdp_point(2, 3000, 0, 0), fsdp_point(4, 3100, 2048, 0), fsdp_point(8, 3200, 8192, 2), fsdp_point(16, 3300, 65536, 16),
            fsdp_point(32, 0, 0, 0, Infeasible::zero_shard_group)};
}

QXYSeries* xy_named(QChart* chart, const QString& name) {
    for (QAbstractSeries* s : chart->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s); xy && xy->name() == name) return xy;
    return nullptr;
}

}  // namespace

class TestCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void breakdownValuesAreTheInputPartsInSeconds() {
        TimeBreakdown pinned = big_iteration();
        pinned.compute_s = 60;
        const auto m = build_breakdown_model({{"current", big_iteration()}, {"tp4 (pinned)", pinned}});
        QCOMPARE(m.unit, QString("s"));
        QCOMPARE(m.axis.title, QString("Iteration time (s)"));
        QCOMPARE(m.bar_count(), std::size_t{2});
        QCOMPARE(m.bar_labels[1], QString("tp4 (pinned)"));
        QCOMPARE(m.series.size(), std::size_t{12});  // with a DLRM's lookups and embedding all-to-all
        QCOMPARE(m.series[0].name, QString("Compute"));
        QCOMPARE(m.series[0].values[0], 87.162);
        QCOMPARE(m.series[0].values[1], 60.0);
        QCOMPARE(series_named(m, "Pipeline bubble").values[0], 5.832);
        QCOMPARE(series_named(m, "TP comm").values[0], 5.555);
        QCOMPARE(series_named(m, "PP comm").values[0], 2.068);
        QCOMPARE(series_named(m, "DP comm").values[0], 0.55621);
        QCOMPARE(series_named(m, "Optimizer").values[0], 0.03494);
        QCOMPARE(series_named(m, "Other").values[0], 0.03031);
        QCOMPARE(m.totals[0], big_iteration().total());
        QCOMPARE(m.totals[1], pinned.total());
        QCOMPARE(m.total_labels[0], QString("101 s"));
        QVERIFY(m.axis.max >= big_iteration().total());
    }

    void breakdownSwitchesToMillisecondsBelowOneSecond() {
        TimeBreakdown t;
        t.compute_s = 0.4;
        t.dp_comm_s = 0.05;
        const auto m = build_breakdown_model({{"small", t}});
        QCOMPARE(m.unit, QString("ms"));
        QCOMPARE(m.axis.title, QString("Iteration time (ms)"));
        QCOMPARE(m.series[0].values[0], 400.0);
        QCOMPARE(series_named(m, "DP comm").values[0], 50.0);
        QCOMPARE(m.totals[0], 450.0);
        QCOMPARE(m.total_labels[0], QString("450 ms"));
        // One bar of a second or more switches every bar back to seconds.
        TimeBreakdown big;
        big.compute_s = 1.5;
        QCOMPARE(build_breakdown_model({{"small", t}, {"big", big}}).unit, QString("s"));
    }

    void breakdownLegendOmitsZeroCategories() {
        const auto m = build_breakdown_model({{"current", big_iteration()}});
        const std::vector<QString> expected{"Compute", "Pipeline bubble", "TP comm", "PP comm", "DP comm", "Optimizer", "Other"};
        QCOMPARE(m.legend_names(), expected);
        QVERIFY(series_named(m, "Memory").all_zero);
        // A category that is non-zero in any bar is listed.
        TimeBreakdown with_memory;
        with_memory.compute_s = 1;
        with_memory.memory_s = 0.2;
        const auto both = build_breakdown_model({{"a", big_iteration()}, {"b", with_memory}});
        QCOMPARE(both.legend_names().size(), std::size_t{8});
    }

    void breakdownSegmentLabelsOnlyOnWideSegments() {
        const auto m = build_breakdown_model({{"current", big_iteration()}});
        QCOMPARE(m.axis.max, 125.0);  // 101.2 s * headroom, rounded up to 25 s steps
        const double threshold = segment_label_min_share * m.axis.max;
        for (const StackSeries& s : m.series) QCOMPARE(s.segment_labels[0].isEmpty(), s.values[0] < threshold);
        QCOMPARE(m.series[0].segment_labels[0], QString("87.2"));
        QVERIFY(series_named(m, "Pipeline bubble").segment_labels[0].isEmpty());  // 5.8 s < 7.5 s
    }

    void breakdownTooltipNamesBarPartAndShare() {
        const auto m = build_breakdown_model({{"tp8 pp64 dp6", big_iteration()}});
        QCOMPARE(segment_tooltip(m, 4, 0), QString("tp8 pp64 dp6\nDP comm: 0.56 s (0.5 %)"));
        QCOMPARE(segment_tooltip(m, 9, 0), QString("tp8 pp64 dp6\nOther: 30.31 ms (< 0.1 %)"));
        QVERIFY(segment_tooltip(m, 12, 0).isEmpty());
        QVERIFY(segment_tooltip(m, 0, 1).isEmpty());
        TimeBreakdown dlrm;
        dlrm.compute_s = 0.010;
        dlrm.lookup_s = 0.003;
        dlrm.emb_comm_s = 0.007;
        const auto d = build_breakdown_model({{"dp16 table-wise rows=hbm", dlrm}});
        QCOMPARE(segment_tooltip(d, 10, 0), QString("dp16 table-wise rows=hbm\nEmbedding lookups: 3 ms (15.0 %)"));
        QCOMPARE(segment_tooltip(d, 11, 0), QString("dp16 table-wise rows=hbm\nEmbedding all-to-all: 7 ms (35.0 %)"));
    }

    void niceAxisRoundsUp() {
        const auto a = nice_axis(116.4, "t");
        QCOMPARE(a.max, 125.0);
        QCOMPARE(a.tick_count, 6);
        QCOMPARE(a.label_format, QString("%.0f"));
        QCOMPARE(nice_axis(0.9, "t").max, 1.0);
        QCOMPARE(nice_axis(11, "t").max, 12.5);
        QCOMPARE(nice_axis(11, "t").label_format, QString("%.1f"));  // steps of 2.5
        QCOMPARE(nice_axis(0, "t").max, 1.0);
        for (double v : {0.013, 1.0, 3.7, 66.2, 92.0, 1234.0, 5e5}) {
            const auto ax = nice_axis(v, "t");
            QVERIFY2(ax.max >= v && ax.max <= 2.5 * v, qPrintable(QString::number(v)));
            QVERIFY(ax.tick_count >= 2 && ax.tick_count <= 6);
        }
    }

    void memoryModelInGibWithCapacity() {
        const auto m = build_memory_model({{"HBM", hbm(4, 19.8, 80)}, {"Expanded", hbm(0, 0, 0)}});
        QCOMPARE(m.bar_count(), std::size_t{2});
        QCOMPARE(m.series.size(), std::size_t{6});
        QCOMPARE(series_named(m, "Weights").values[0], 4.0);
        QCOMPARE(series_named(m, "Gradients").values[0], 8.0);
        QCOMPARE(series_named(m, "Optimizer").values[0], 24.0);
        QCOMPARE(series_named(m, "Activations").values[0], 19.8);
        QCOMPARE(series_named(m, "Other").values[0], 2.0);
        QCOMPARE(series_named(m, "Allocator margin").values[0], 4.0);  // 5 % of 80 GiB
        QCOMPARE(m.totals[0], 61.8);
        QCOMPARE(m.capacity_gib, (std::vector<double>{80.0, 0.0}));
        QCOMPARE(m.over_capacity, (std::vector<bool>{false, false}));
        QVERIFY(!m.any_over_capacity());
        QVERIFY(m.title_suffix.isEmpty());
        QCOMPARE(m.total_labels[0], QString("61.8 / 80 GiB"));
        QVERIFY(m.axis.max >= 80.0);  // the capacity mark stays on the axis
        QCOMPARE(m.axis.title, QString("Memory per accelerator (GiB)"));
    }

    void memoryOverCapacityIsFlagged() {
        const auto m = build_memory_model({{"HBM", hbm(8, 30, 80)}, {"Expanded", hbm(1, 1, 512)}});
        QCOMPARE(m.totals[0], 108.0);
        QCOMPARE(m.over_capacity, (std::vector<bool>{true, false}));
        QVERIFY(m.any_over_capacity());
        QCOMPARE(m.title_suffix, QString("HBM exceeds capacity by 28 GiB"));
        QCOMPARE(segment_tooltip(m, 3, 0), QString("HBM\nActivations: 30 GiB (37.5 % of capacity)"));
    }

    void amountsReadWell() {
        QCOMPARE(format_amount(101.238), QString("101"));
        QCOMPARE(format_amount(87.162), QString("87.2"));
        QCOMPARE(format_amount(5.832), QString("5.83"));
        QCOMPARE(format_amount(0.55621), QString("0.56"));
        QCOMPARE(format_amount(80.0), QString("80"));
        QCOMPARE(format_amount(2.5), QString("2.5"));
        QCOMPARE(format_amount(0), QString("0"));
    }

    void longBarLabelsKeepTheirPinnedSuffix() {
        const QFontMetricsF fm(QFont{});
        const QString label = "tp8 pp16 dp24 mb1 v8 recompute=selective sp zero2 (pinned)";
        const qreal budget = fm.horizontalAdvance("tp8 pp16 dp24 mb1 (pinned)");
        const QString short_label = elide_bar_label(label, fm, budget);
        QVERIFY2(short_label.startsWith("tp8 pp16"), qPrintable(short_label));
        QVERIFY2(short_label.endsWith("… (pinned)"), qPrintable(short_label));
        QVERIFY(fm.horizontalAdvance(short_label) <= budget);
        QCOMPARE(elide_bar_label("current", fm, budget), QString("current"));
        // A long trailing group is not worth keeping whole.
        const QString cur = elide_bar_label("current (tp8 pp64 dp6 mb1 v2, full recompute)", fm, budget);
        QVERIFY2(cur.startsWith("current (tp8") && cur.endsWith("…"), qPrintable(cur));
    }

    // The breakdown's row label names the strategy: in presentation mode (the chart laid out at
    // 1/2.1 of its pane) and at 1280x720 it wraps onto the lines its row has room for, each no
    // wider than the axis Qt Charts allows, and is drawn whole: not cut by Qt Charts ("ep64 v2
    // recompute=none zer...", the lines were wider than the axis) nor replaced by the short label
    // "Current" (the room per row was underestimated).
    void breakdownRowLabelIsDrawnWhole_data() {
        QTest::addColumn<QString>("label");
        QTest::addColumn<bool>("moe");
        QTest::addColumn<double>("zoom");
        QTest::addColumn<QSize>("pane");
        const QString moe = "Current: tp1 pp2 dp128 mb1 ep64 v2 recompute=none zero1";
        const QString dense = "Current: tp8 pp64 dp6 mb1 v2 recompute=full";
        QTest::newRow("presentation 1920x1080, MoE") << moe << true << 2.1 << QSize(1140, 432);
        QTest::newRow("presentation 1920x1080, dense") << dense << false << 2.1 << QSize(1140, 432);
        QTest::newRow("1280x720, MoE") << moe << true << 1.0 << QSize(520, 230);
        QTest::newRow("1280x720, dense") << dense << false << 1.0 << QSize(520, 230);
    }
    void breakdownRowLabelIsDrawnWhole() {
        QFETCH(QString, label);
        QFETCH(bool, moe);
        QFETCH(double, zoom);
        QFETCH(QSize, pane);
        TimeBreakdown t;  // shaped like the GB300 scenario: compute, bubble, DP, EP, optimizer
        t.compute_s = 3.58;
        t.bubble_s = 0.1;
        t.dp_comm_s = 0.02;
        t.ep_comm_s = 0.3;
        t.optimizer_s = 0.05;
        auto view = make_breakdown_chart(nullptr);
        set_chart_zoom(zoom);
        const auto unzoom = qScopeGuard([] { set_chart_zoom(1.0); });
        view->widget()->resize(pane);
        view->widget()->show();
        QVERIFY(QTest::qWaitForWindowExposed(view->widget()));
        view->setBars({{label, moe ? t : big_iteration(), "Current"}});
        QChart* chart = chart_of(view->widget());
        QTest::qWait(50);
        const QStringList texts = drawn_chart_texts(chart);
        for (const QString& text : texts) QVERIFY2(!text.contains("...") && !text.contains(QChar(0x2026)), qPrintable("cut: " + text));
        QVERIFY2(texts.contains(label), qPrintable(texts.join(" | ")));
    }

    void emptyInputGivesEmptyModels() {
        QVERIFY(build_breakdown_model({}).empty());
        QVERIFY(build_breakdown_model({}).legend_names().empty());
        QVERIFY(build_memory_model({}).empty());
    }

    void breakdownWidgetUpdatesSeriesWithoutLeaking() {
        auto view = make_breakdown_chart(nullptr);
        TimeBreakdown pinned = big_iteration();
        pinned.compute_s = 60;
        view->setBars({{"current", big_iteration()}, {"tp4 (pinned)", pinned}});
        QChart* chart = chart_of(view->widget());
        QVERIFY(chart);
        const auto series_count = chart->series().size();
        // Qt Charts counts categories from the bottom; the selected bar is the top one.
        auto* categories = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(categories);
        QCOMPARE(categories->categories(), (QStringList{"tp4 (pinned)", "current"}));
        QCOMPARE(set_named(chart, "Compute")->count(), 2);
        QCOMPARE(set_named(chart, "Compute")->at(1), 87.162);
        QCOMPARE(set_named(chart, "Compute")->at(0), 60.0);

        TimeBreakdown t;
        t.compute_s = 0.3;
        t.tp_comm_s = 0.1;
        for (int i = 0; i < 20; ++i) view->setBars({{"other", t}});
        QCOMPARE(chart->series().size(), series_count);
        QCOMPARE(bars_of(chart)->barSets().size(), 12);
        QCOMPARE(set_named(chart, "Compute")->count(), 1);
        QCOMPARE(set_named(chart, "Compute")->at(0), 300.0);  // now in ms
        QCOMPARE(set_named(chart, "TP comm")->at(0), 100.0);
        auto* axis = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->titleText(), QString("Iteration time (ms)"));
    }

    void breakdownLegendListsNonZeroCategories() {
        auto view = make_breakdown_chart(nullptr);
        show_sized(view->widget());
        view->setBars({{"current", big_iteration()}});
        QChart* chart = chart_of(view->widget());
        QCOMPARE(visible_legend(chart), (QStringList{"Compute", "Pipeline bubble", "TP comm", "PP comm", "DP comm", "Optimizer", "Other"}));
        TimeBreakdown t;
        t.compute_s = 2;
        t.memory_s = 1;
        view->setBars({{"offload", t}});
        QCOMPARE(visible_legend(chart), (QStringList{"Compute", "Memory"}));
    }

    void narrowPaneWrapsLegendAndTitle() {
        auto view = make_memory_chart(nullptr);
        view->widget()->resize(380, 300);
        view->widget()->show();
        QVERIFY(QTest::qWaitForWindowExposed(view->widget()));
        view->setTiers({{"HBM", hbm(8, 30, 80)}});
        QChart* chart = chart_of(view->widget());
        QCOMPARE(visible_legend(chart),
                 (QStringList{"Weights", "Gradients", "Optimizer", "Activations", "Other", "Allocator margin", "Capacity"}));
        std::set<qreal> rows;
        for (QGraphicsItem* item : chart->childItems()) {
            auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (!t || !t->isVisible() || t->data(0) != "legend") continue;
            rows.insert(t->y());
            QVERIFY(chart->rect().contains(t->mapRectToParent(t->boundingRect())));
        }
        QVERIFY(rows.size() >= 2);
        // The overflow message is too long for one line: it moves to a second line, not cut.
        QVERIFY2(chart->title().contains("<br>HBM exceeds capacity by 28 GiB"), qPrintable(chart->title()));
    }

    void emptyListShowsNoData() {
        auto view = make_breakdown_chart(nullptr);
        QChart* chart = chart_of(view->widget());
        QVERIFY(shows_no_data(chart));  // before the first update
        view->setBars({{"current", big_iteration()}});
        QVERIFY(!shows_no_data(chart));
        view->setBars({});
        QVERIFY(shows_no_data(chart));
        QVERIFY(visible_legend(chart).isEmpty());
        QCOMPARE(set_named(chart, "Compute")->count(), 0);

        auto memory = make_memory_chart(nullptr);
        memory->setTiers({});
        QVERIFY(shows_no_data(chart_of(memory->widget())));
    }

    void toImageDrawsTheChart() {
        auto view = make_breakdown_chart(nullptr);
        view->setBars({{"current", big_iteration()}});
        const QImage image = view->toImage(QSize(700, 360), 2.0);
        QCOMPARE(image.size(), QSize(1400, 720));
        QCOMPARE(image.devicePixelRatio(), 2.0);
        QVERIFY(non_white_share(image) > 0.05);
        // The compute segment's blue is there.
        bool blue = false;
        for (int y = 0; y < image.height() && !blue; y += 2)
            for (int x = 0; x < image.width() && !blue; x += 2) blue = image.pixelColor(x, y) == time_categories()[0].color;
        QVERIFY(blue);
    }

    void saveSvgWritesTitleAndAxisText() {
        QTemporaryDir dir;
        auto view = make_breakdown_chart(nullptr);
        view->setTitle("Breakdown of the selected cell");
        view->setBars({{"current", big_iteration()}});
        const QString path = dir.filePath("breakdown.svg");
        QVERIFY(view->saveSvg(path, "COMET breakdown"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("Breakdown of the selected cell"));
        QVERIFY(svg.contains("Iteration time (s)"));
        QVERIFY(svg.contains("<title>COMET breakdown</title>"));
        QVERIFY(!view->saveSvg("/nonexistent-dir/x.svg", "x"));
        QVERIFY(!QFile::exists("/nonexistent-dir/x.svg"));
    }

    void memoryWidgetMarksCapacity() {
        auto view = make_memory_chart(nullptr);
        show_sized(view->widget());
        view->setTiers({{"HBM", hbm(8, 30, 80)}, {"Expanded", hbm(1, 1, 512)}});
        QChart* chart = chart_of(view->widget());
        QVERIFY(chart->title().startsWith("Memory per accelerator"));
        QVERIFY(chart->title().contains("HBM exceeds capacity by 28 GiB"));
        QList<double> caps;
        for (QAbstractSeries* s : chart->series())
            if (auto* line = qobject_cast<QLineSeries*>(s); line && line->isVisible()) caps << line->at(0).x();
        QCOMPARE(caps, (QList<double>{80.0, 512.0}));
        QCOMPARE(set_named(chart, "Activations")->at(1), 30.0);  // HBM, the first tier, on top
        QCOMPARE(set_named(chart, "Activations")->at(0), 1.0);
        QVERIFY(visible_legend(chart).contains("Capacity"));
        QCOMPARE(visible_legend(chart).count("Capacity"), 1);

        view->setTiers({{"HBM", hbm(4, 10, 80)}});
        QCOMPARE(chart->title(), QString("Memory per accelerator"));
        caps.clear();
        for (QAbstractSeries* s : chart->series())
            if (auto* line = qobject_cast<QLineSeries*>(s); line && line->isVisible()) caps << line->at(0).x();
        QCOMPARE(caps, (QList<double>{80.0}));
    }

    void widgetOwnershipEitherWay() {
        auto parent = std::make_unique<QWidget>();
        auto view = make_breakdown_chart(parent.get());
        QCOMPARE(view->widget()->parentWidget(), parent.get());
        view.reset();  // the view takes its widget along
        QVERIFY(parent->findChildren<QChartView*>().isEmpty());

        view = make_breakdown_chart(parent.get());
        parent.reset();  // the parent deletes the widget; the view stays usable for exports
        QVERIFY(view->widget() == nullptr);
        view->setBars({{"current", big_iteration()}});
        QVERIFY(!view->toImage(QSize(300, 200), 1.0).isNull());
    }

    void hoverShowsSegmentTooltip() {
        auto view = make_breakdown_chart(nullptr);
        show_sized(view->widget());
        view->setBars({{"current", big_iteration()}});
        auto* chart_view = qobject_cast<QChartView*>(view->widget());
        QChart* chart = chart_view->chart();
        const QPointF in_compute = chart->mapToPosition(QPointF(40, 0), bars_of(chart));
        const QPoint pos = chart_view->mapFromScene(chart->mapToScene(in_compute));
        QHelpEvent help(QEvent::ToolTip, pos, chart_view->viewport()->mapToGlobal(pos));
        QCoreApplication::sendEvent(chart_view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), QString("current\nCompute: 87.2 s (86.1 %)"));
    }

    // ---- expert and context parallelism in the breakdown ----

    // An MoE configuration with context parallelism: the EP all-to-all and the CP ring exchange are
    // parts of their own, equal to the core's, and the parts still add up to the iteration time.
    void breakdownHasTheCoresExpertAndContextParts() {
        const Result r = evaluate(test::moe_config());
        QVERIFY2(r.feasible, std::string(describe(r.reason)).c_str());
        QVERIFY(r.time.ep_comm_s > 0);
        QVERIFY(r.time.cp_comm_s > 0);
        const auto m = build_breakdown_model({{"moe", r.time}});
        QCOMPARE(series_named(m, "EP all-to-all").values[0], r.time.ep_comm_s * m.per_second);
        QCOMPARE(series_named(m, "CP ring exchange").values[0], r.time.cp_comm_s * m.per_second);
        QCOMPARE(series_named(m, "Compute").values[0], r.time.compute_s * m.per_second);
        QVERIFY(near(m.totals[0], r.iteration_s * m.per_second, 1e-9));
        const auto legend = m.legend_names();
        QVERIFY(std::find(legend.begin(), legend.end(), QString("EP all-to-all")) != legend.end());
        QVERIFY(std::find(legend.begin(), legend.end(), QString("CP ring exchange")) != legend.end());
        // The communication parts sit side by side.
        QCOMPARE(m.series[5].name, QString("EP all-to-all"));
        QCOMPARE(m.series[6].name, QString("CP ring exchange"));
    }

    // The two new parts are far from every other colour (and from each other), not just different.
    void timeCategoriesHaveDistinctColours() {
        const auto cats = time_categories();
        QCOMPARE(cats.size(), std::size_t{12});
        const auto added = [](std::size_t k) { return k == 5 || k == 6 || k == 10 || k == 11; };  // EP, CP; a DLRM's two
        for (std::size_t i = 0; i < cats.size(); ++i)
            for (std::size_t j = i + 1; j < cats.size(); ++j) {
                const QColor a = cats[i].color, b = cats[j].color;
                QVERIFY2(a != b, qPrintable(cats[i].name + " vs " + cats[j].name));
                if (!added(i) && !added(j)) continue;
                const int distance = std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
                QVERIFY2(distance >= 120, qPrintable(cats[i].name + " vs " + cats[j].name));
            }
    }

    // The widget stacks the two new parts in their colours and lists them in the legend.
    void breakdownWidgetDrawsExpertAndContextParts() {
        TimeBreakdown t;
        t.compute_s = 1.0;
        t.ep_comm_s = 0.5;
        t.cp_comm_s = 0.4;
        auto view = make_breakdown_chart(nullptr);
        show_sized(view->widget());
        view->setBars({{"moe", t}});
        QChart* chart = chart_of(view->widget());
        QCOMPARE(set_named(chart, "EP all-to-all")->at(0), 0.5);
        QCOMPARE(set_named(chart, "CP ring exchange")->at(0), 0.4);
        QCOMPARE(visible_legend(chart), (QStringList{"Compute", "EP all-to-all", "CP ring exchange"}));
        const QImage image = view->toImage(QSize(700, 360), 1.0);
        QVERIFY(pixels_of(image, time_categories()[5].color) > 500);
        QVERIFY(pixels_of(image, time_categories()[6].color) > 500);
    }

    // ---- FSDP balance ----

    // The drawn points are the core's fsdp_balance numbers for the same configuration, at x = GPUs.
    void fsdpModelIsTheCoresBalance() {
        Config c = test::moe_config();
        const std::vector<int> dps = fsdp_default_dps(c);
        QVERIFY(dps.size() >= 2);
        const std::vector<FsdpPoint> points = fsdp_balance(c, dps);
        QCOMPARE(points.size(), dps.size());
        const FsdpChartModel m = build_fsdp_model(points);
        QVERIFY(m.message.isEmpty());
        std::size_t needed = 0, allowed = 0, hidden = 0;
        for (const FsdpPoint& p : points) {
            if (p.reason != Infeasible::none) continue;
            const double x = static_cast<double>(p.gpus);
            if (!m.log_y || p.tokens_to_hide > 0) {
                QVERIFY(needed < m.needed.size());
                QCOMPARE(m.needed[needed].pos, QPointF(x, p.tokens_to_hide));
                QVERIFY(m.needed[needed].tooltip.contains(QString("dp %1 · %2 GPUs").arg(p.dp).arg(p.gpus)));
                ++needed;
            }
            if (!m.log_y || p.max_tokens_hbm > 0) {
                QVERIFY(allowed < m.allowed.size());
                QCOMPARE(m.allowed[allowed++].pos, QPointF(x, p.max_tokens_hbm));
            }
            if (p.hidden()) {
                QVERIFY(hidden < m.hidden.size());
                QCOMPARE(m.hidden[hidden++], QPointF(x, p.tokens_to_hide));
            }
        }
        QCOMPARE(m.needed.size(), needed);
        QCOMPARE(m.allowed.size(), allowed);
        QCOMPARE(m.hidden.size(), hidden);
        QVERIFY(needed > 0);
    }

    void fsdpModelScalesAndListsWhatItCannotDraw() {
        const FsdpChartModel m = build_fsdp_model(fsdp_points());
        QVERIFY(m.log_y);  // 2048 .. 65536: a factor 32 apart (the 0 of dp 2 left out)
        QCOMPARE(m.needed.size(), std::size_t{4});
        QCOMPARE(m.allowed.size(), std::size_t{3});  // dp 2 allows 0 tokens: not on a log axis
        QCOMPARE(m.allowed.front().pos, QPointF(64, 2048));
        QCOMPARE(m.hidden, (std::vector<QPointF>{{128, 3200}, {256, 3300}}));
        QCOMPARE(m.not_drawn, QString("Not drawn: dp 2 (no sequence fits in HBM); dp 32 (cannot run)"));
        QCOMPARE(m.x_title, QString("GPUs (dp × 16 per replica)"));
        QVERIFY(m.x_min < 32 && m.x_max > 256);
        QCOMPARE(m.y_log_min, 1000.0);
        QCOMPARE(m.y_log_max, 100000.0);
        QVERIFY(m.needed[2].tooltip.contains("HBM allows: 8.19 k tokens per GPU (microbatch 2)"));
        QVERIFY(m.needed[2].tooltip.endsWith("FSDP can be hidden"));
        QVERIFY(m.needed[1].tooltip.endsWith("FSDP traffic stays exposed"));
        QCOMPARE(fsdp_verdict(fsdp_points()[0]), QString("no sequence fits in HBM"));
        QCOMPARE(fsdp_verdict(fsdp_points()[2]), QString("hidden"));
        QCOMPARE(fsdp_verdict(fsdp_points()[4]), QString::fromUtf8(describe(Infeasible::zero_shard_group).data()));

        // Close values stay on a linear axis from 0.
        const FsdpChartModel linear = build_fsdp_model({fsdp_point(4, 3000, 2500), fsdp_point(8, 3000, 5000)});
        QVERIFY(!linear.log_y);
        QCOMPARE(linear.y_axis.min, 0.0);
        QVERIFY(linear.y_axis.max >= 5000);
        QVERIFY(linear.not_drawn.isEmpty());

        QCOMPARE(build_fsdp_model({}).message, QString("No data"));
        const FsdpChartModel none = build_fsdp_model({fsdp_point(2, 0, 0, 0, Infeasible::cp_seq)});
        QVERIFY(none.empty());
        QVERIFY(none.message.startsWith("No size can run: "));
    }

    void fsdpWidgetShowsTheLinesOnALogAxis() {
        auto view = make_fsdp_chart(nullptr);
        QChart* chart = chart_of(view->widget());
        QVERIFY(shows_no_data(chart));
        show_sized(view->widget());
        view->setPoints(fsdp_points());
        const FsdpChartModel m = build_fsdp_model(fsdp_points());
        QXYSeries* needed = xy_named(chart, m.needed_name);
        QXYSeries* allowed = xy_named(chart, m.allowed_name);
        QXYSeries* hidden = xy_named(chart, m.hidden_name);
        QVERIFY(needed && allowed && hidden);
        QCOMPARE(needed->points(), (QList<QPointF>{{32, 3000}, {64, 3100}, {128, 3200}, {256, 3300}}));
        QCOMPARE(allowed->points(), (QList<QPointF>{{64, 2048}, {128, 8192}, {256, 65536}}));
        QCOMPARE(hidden->points(), (QList<QPointF>{{128, 3200}, {256, 3300}}));
        QList<QAbstractAxis*> shown_y;
        for (QAbstractAxis* a : needed->attachedAxes())
            if (a->orientation() == Qt::Vertical) shown_y << a;
        QCOMPARE(shown_y.size(), 1);
        QVERIFY(qobject_cast<QLogValueAxis*>(shown_y.front()));
        QVERIFY(shown_y.front()->isVisible());
        QCOMPARE(visible_legend(chart), (QStringList{m.needed_name, m.allowed_name, m.hidden_name, m.not_drawn}));
        QVERIFY(!shows_no_data(chart));

        // Close values: the lines move to the linear axis.
        view->setPoints({fsdp_point(4, 3000, 2500), fsdp_point(8, 3000, 5000)});
        shown_y.clear();
        for (QAbstractAxis* a : needed->attachedAxes())
            if (a->orientation() == Qt::Vertical) shown_y << a;
        QCOMPARE(shown_y.size(), 1);
        QVERIFY(qobject_cast<QValueAxis*>(shown_y.front()));
        QCOMPARE(allowed->points(), (QList<QPointF>{{64, 2500}, {128, 5000}}));
    }

    void fsdpChartExportsToPng() {
        QTemporaryDir dir;
        auto view = make_fsdp_chart(nullptr);
        view->setPoints(fsdp_points());
        const QString png = dir.filePath("fsdp.png");
        ExportOptions options;
        options.size = QSize(800, 450);
        options.dpi = 96;
        QCOMPARE(export_chart(*view, png, options), QString());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(800, 450));
        QVERIFY(non_white_share(image) > 0.03);
        // The hidden markers are filled with their colour.
        QVERIFY(pixels_of(image, build_fsdp_model(fsdp_points()).hidden_color) > 20);
        QCOMPARE(view->exportTitle(), QString("FSDP balance: tokens per GPU per microbatch"));
    }

    // ---- tornado ----

    void tornadoRowsKeepTheGivenOrderWithResourceLabels() {
        const std::vector<SensitivityBar> bars = tornado_bars();
        const TornadoModel m = build_tornado_model(bars, 0.1);
        QVERIFY(m.message.isEmpty());
        QCOMPARE(m.rows.size(), bars.size());
        QCOMPARE(m.rows[0].label, QString("HBM capacity (80 GiB)"));
        QCOMPARE(m.rows[1].label, QString("HBM bandwidth (2039 GB/s)"));
        QCOMPARE(m.rows[2].label, QString("Scale-out bandwidth (25 GB/s)"));  // knob label, capitalised
        QCOMPARE(m.rows[3].label, QString("Scale-up latency (2 µs)"));
        QCOMPARE(build_tornado_model({sensitivity_bar(Knob::matrix_tflops, 312, 90, 75)}, 0.1).rows[0].label,
                 QString("Matrix throughput (fp16) (312 TFLOP/s)"));
        QCOMPARE(m.low_name, "resource " + minus + "10 %");
        QCOMPARE(m.high_name, QString("resource +10 %"));
        QCOMPARE(m.default_title, QString("Sensitivity of the best iteration time (±10 %)"));
        QVERIFY(m.low_color != m.high_color);
    }

    void tornadoPercentsComeFromTheTimes() {
        const std::vector<SensitivityBar> bars = tornado_bars();
        const TornadoModel m = build_tornado_model(bars, 0.1);
        for (std::size_t r = 1; r < bars.size(); ++r) {
            const SensitivityBar& b = bars[r];
            QCOMPARE(m.rows[r].low.change_pct, 100.0 * (b.time_low_s - b.base_time_s) / b.base_time_s);
            QCOMPARE(m.rows[r].high.change_pct, 100.0 * (b.time_high_s - b.base_time_s) / b.base_time_s);
            QCOMPARE(m.rows[r].low.text, expected_percent(b.time_low_s, b.base_time_s));
            QCOMPARE(m.rows[r].high.text, expected_percent(b.time_high_s, b.base_time_s));
        }
        QCOMPARE(m.rows[1].low.text, QString("+8.3 %"));
        QCOMPARE(m.rows[1].high.text, minus + "5.1 %");
        QCOMPARE(m.rows[3].low.text, minus + "0.05 %");  // small effects keep two significant digits
        const QString tip = m.rows[1].low.tooltip;
        QVERIFY2(tip.contains("HBM bandwidth " + minus + "10 %: 1835 GB/s"), qPrintable(tip));
        QVERIFY2(tip.contains("Best iteration time: 86.640 s (+8.3 %)"), qPrintable(tip));
        QVERIFY(tip.contains("Base: 80.000 s"));
        // The axis is symmetric around 0 and leaves room for the longest bar's label.
        QCOMPARE(m.axis.min, -m.axis.max);
        QVERIFY(m.axis.max >= 8.3 * 1.2);
        QCOMPARE(m.axis.tick_count % 2, 1);  // 0 is a tick
        QCOMPARE(format_signed_percent(0), QString("0 %"));
        QCOMPARE(format_signed_percent(12.04), QString("+12.0 %"));
        QCOMPARE(format_signed_percent(-0.0042), minus + "0.0042 %");
    }

    void tornadoInfeasibleSideSaysSo() {
        const TornadoModel m = build_tornado_model(tornado_bars(), 0.1);
        QVERIFY(!m.rows[0].low.feasible);
        QCOMPARE(m.rows[0].low.text, QString("infeasible"));
        QCOMPARE(m.rows[0].low.change_pct, 0.0);
        QVERIFY(m.rows[0].low.tooltip.contains("No feasible strategy"));
        QVERIFY(m.rows[0].high.feasible);
        QCOMPARE(m.rows[0].high.text, minus + "0.4 %");
        QVERIFY(m.any_infeasible());
        QVERIFY(!build_tornado_model({tornado_bars()[1]}, 0.1).any_infeasible());
    }

    void tornadoWithoutDataOrBaseShowsAMessage() {
        const TornadoModel none = build_tornado_model({}, 0.1);
        QVERIFY(none.empty());
        QCOMPARE(none.message, QString("No data"));
        std::vector<SensitivityBar> bars = tornado_bars();
        for (SensitivityBar& b : bars) b.base_feasible = false;
        const TornadoModel no_base = build_tornado_model(bars, 0.1);
        QVERIFY(no_base.empty());
        QCOMPARE(no_base.message, QString("No feasible base configuration"));
        // The fraction names the legend and the default title.
        const TornadoModel five = build_tornado_model(tornado_bars(), 0.05);
        QCOMPARE(five.high_name, QString("resource +5 %"));
        QCOMPARE(five.default_title, QString("Sensitivity of the best iteration time (±5 %)"));
    }

    void tornadoWidgetDrawsRowsTopDownWithTheirTexts() {
        auto view = make_tornado_chart(nullptr);
        show_sized(view->widget());
        const std::vector<SensitivityBar> bars = tornado_bars();
        view->setBars(bars, 0.1);
        QChart* chart = chart_of(view->widget());
        QVERIFY(chart);
        QCOMPARE(chart->title(), QString("Sensitivity of the best iteration time (±10 %)"));
        QCOMPARE(view->exportTitle(), chart->title());
        // Qt Charts counts categories from the bottom: the first bar is the top row.
        auto* rows = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(rows);
        QCOMPARE(rows->categories(), (QStringList{"Scale-up latency (2 µs)", "Scale-out bandwidth (25 GB/s)", "HBM bandwidth (2039 GB/s)",
                                                  "HBM capacity (80 GiB)"}));
        // Each row's value labels, top to bottom in the given order.
        QStringList in_order;
        for (std::size_t r = 0; r < bars.size(); ++r) {
            const SensitivityBar& b = bars[r];
            if (r > 0) in_order << expected_percent(b.time_low_s, b.base_time_s);
            in_order << expected_percent(b.time_high_s, b.base_time_s);
        }
        qreal last_y = -1;
        for (const QString& text : in_order) {
            QGraphicsSimpleTextItem* item = text_item(chart, text);
            QVERIFY2(item, qPrintable(text));
            QVERIFY2(item->y() > last_y, qPrintable(text));
            QVERIFY(chart->rect().contains(item->mapRectToParent(item->boundingRect())));
            last_y = item->y();
        }
        QGraphicsSimpleTextItem* infeasible = text_item(chart, "infeasible");
        QVERIFY(infeasible);
        QVERIFY(infeasible->y() < text_item(chart, minus + "0.4 %")->y());  // the low side is above the high side
        QCOMPARE(visible_legend(chart), (QStringList{"resource " + minus + "10 %", "resource +10 %", "no feasible strategy"}));
        auto* series = qobject_cast<QHorizontalBarSeries*>(chart->series().value(0));
        QVERIFY(series);
        QCOMPARE(series->count(), 2);
    }

    void tornadoImageHasBarsOfBothColours() {
        auto view = make_tornado_chart(nullptr);
        view->setBars(tornado_bars(), 0.1);
        const TornadoModel m = build_tornado_model(tornado_bars(), 0.1);
        const QImage image = render_chart_image(*view, QSize(700, 400), 96);
        QCOMPARE(image.size(), QSize(700, 400));
        QVERIFY2(pixels_of(image, m.low_color) > 300, "no low-side bars");
        QVERIFY2(pixels_of(image, m.high_color) > 300, "no high-side bars");
        // Nothing to draw: no bar colours at all.
        view->setBars({}, 0.1);
        const QImage empty = render_chart_image(*view, QSize(700, 400), 96);
        QCOMPARE(pixels_of(empty, m.low_color), qsizetype{0});
        QCOMPARE(pixels_of(empty, m.high_color), qsizetype{0});
    }

    void tornadoWidgetMessagesAndTitle() {
        auto view = make_tornado_chart(nullptr);
        show_sized(view->widget());
        QChart* chart = chart_of(view->widget());
        QVERIFY(shows_message(chart, "No data"));  // before the first update
        std::vector<SensitivityBar> bars = tornado_bars();
        for (SensitivityBar& b : bars) b.base_feasible = false;
        view->setBars(bars, 0.1);
        QVERIFY(shows_message(chart, "No feasible base configuration"));
        QVERIFY(!shows_message(chart, "No data"));
        QVERIFY(visible_legend(chart).isEmpty());
        view->setBars(tornado_bars(), 0.2);
        QVERIFY(!shows_message(chart, "No feasible base configuration"));
        QCOMPARE(chart->title(), QString("Sensitivity of the best iteration time (±20 %)"));
        view->setTitle("Megatron 1T: what matters");
        view->setBars(tornado_bars(), 0.1);
        QCOMPARE(chart->title(), QString("Megatron 1T: what matters"));
        QCOMPARE(view->exportTitle(), QString("Megatron 1T: what matters"));
    }

    void tornadoHoverShowsTheSideTooltip() {
        auto view = make_tornado_chart(nullptr);
        show_sized(view->widget());
        view->setBars(tornado_bars(), 0.1);
        auto* chart_view = qobject_cast<QChartView*>(view->widget());
        QChart* chart = chart_view->chart();
        auto* series = qobject_cast<QHorizontalBarSeries*>(chart->series().value(0));
        // Row 1 (HBM bandwidth) is Qt row 2 of 4; its low side is the upper half of its bars.
        const double low_pct = 100.0 * (86.64 - 80) / 80;
        const QPointF at = chart->mapToPosition(QPointF(low_pct / 2, 2 + series->barWidth() / 4), series);
        const QPoint pos = chart_view->mapFromScene(chart->mapToScene(at));
        QHelpEvent help(QEvent::ToolTip, pos, chart_view->viewport()->mapToGlobal(pos));
        QCoreApplication::sendEvent(chart_view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), build_tornado_model(tornado_bars(), 0.1).rows[1].low.tooltip);
    }

    // ---- Pareto ----

    void paretoModelSeparatesFrontDominatedAndInfeasible() {
        const ParetoModel m = build_pareto_model(cluster_points());
        QVERIFY(m.message.isEmpty());
        QCOMPARE(m.points.size(), std::size_t{6});
        QCOMPARE(m.infeasible_count, std::size_t{1});
        QCOMPARE(m.infeasible_note, QString("1 infeasible, not shown"));
        QStringList labels, front;
        for (const ParetoMarker& p : m.points) {
            labels << p.label;
            if (p.on_front) front << p.label;
        }
        QCOMPARE(labels, (QStringList{"48 nodes", "96 nodes", "192 nodes", "384 nodes", "768 nodes", "1536 nodes"}));
        QCOMPARE(front, (QStringList{"96 nodes", "192 nodes", "384 nodes"}));
        QVERIFY(m.front_color != m.dominated_color);
        QCOMPARE(m.dominated_color.saturation(), 0);  // grey
        // The front as a staircase in order of time: 384, across, down to 192, across, down to 96.
        const std::vector<QPointF> steps{{33, 11.2}, {62, 11.2}, {62, 10.5}, {121, 10.5}, {121, 10.3}};
        QCOMPARE(m.front_steps.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            QVERIFY(qFuzzyCompare(m.front_steps[i].x(), steps[i].x()));
            QVERIFY(qFuzzyCompare(m.front_steps[i].y(), steps[i].y()));
        }
        QCOMPARE(m.time_axis.title, QString("Time to train (days)"));
        QCOMPARE(m.cost_axis.title, QString("Cost to train (M USD)"));
        QVERIFY(m.time_axis.min <= 33 && m.time_axis.max >= 250);
        QVERIFY(m.cost_axis.min <= 10.3 && m.cost_axis.max >= 44 && m.cost_axis.min >= 0);
    }

    void paretoUnitsFollowTheLargestValues() {
        const ParetoModel hours =
            build_pareto_model(pareto_front({pareto_point("a", 1.5 * day_s, 800), pareto_point("b", 0.5 * day_s, 950)}));
        QCOMPARE(hours.time_unit, QString("h"));
        QCOMPARE(hours.time_axis.title, QString("Time to train (h)"));
        QCOMPARE(hours.points[0].pos.x(), 36.0);
        QCOMPARE(hours.cost_unit, QString("USD"));
        QCOMPARE(hours.points[1].pos.y(), 950.0);
        const ParetoModel days = build_pareto_model(pareto_front({pareto_point("a", 3 * day_s, 5e5), pareto_point("b", 1 * day_s, 9e5)}));
        QCOMPARE(days.time_unit, QString("days"));
        QCOMPARE(days.points[0].pos.x(), 3.0);
        QCOMPARE(days.cost_unit, QString("k USD"));
        QCOMPARE(days.cost_axis.title, QString("Cost to train (k USD)"));
        QCOMPARE(days.points[1].pos.y(), 900.0);
        // Exactly two days still reads in hours.
        QCOMPARE(build_pareto_model({pareto_point("a", 2 * day_s, 2e6)}).time_unit, QString("h"));
        QCOMPARE(build_pareto_model({pareto_point("a", 2 * day_s, 2e6)}).cost_unit, QString("M USD"));
    }

    void paretoTooltipNamesLabelTimeCostAndStrategy() {
        const std::vector<ParetoPoint> pts = cluster_points();
        const ParetoModel m = build_pareto_model(pts);
        const QString tip = m.points[2].tooltip;  // 192 nodes
        QVERIFY2(tip.startsWith("192 nodes\n"), qPrintable(tip));
        QVERIFY2(tip.contains("Time to train: 62 days"), qPrintable(tip));
        QVERIFY2(tip.contains("Cost: 10.5 M USD"), qPrintable(tip));
        QVERIFY2(tip.contains("Strategy: " + QString::fromStdString(format_strategy(pts[3].strategy))), qPrintable(tip));
        QVERIFY(tip.contains("On the Pareto front"));
        QVERIFY(m.points[0].tooltip.contains("Dominated"));
    }

    void paretoWithoutFeasiblePointsShowsAMessage() {
        QCOMPARE(build_pareto_model({}).message, QString("No data"));
        const ParetoModel none = build_pareto_model({pareto_point("a", 1, 1, false), pareto_point("b", 1, 1, false)});
        QVERIFY(none.empty());
        QCOMPARE(none.message, QString("No feasible configuration (2 infeasible)"));
    }

    void paretoWidgetLabelsEveryFeasiblePoint() {
        auto view = make_pareto_chart(nullptr);
        show_sized(view->widget());
        view->setPoints(cluster_points());
        QChart* chart = chart_of(view->widget());
        QCOMPARE(chart->title(), QString("Time to train vs cost"));
        QList<QScatterSeries*> scatters;
        for (QAbstractSeries* s : chart->series())
            if (auto* sc = qobject_cast<QScatterSeries*>(s)) scatters << sc;
        QCOMPARE(scatters.size(), 2);
        const ParetoModel m = build_pareto_model(cluster_points());
        QSet<QString> front_series, grey_series;
        for (QScatterSeries* sc : scatters) {
            QCOMPARE(sc->count(), 3);  // three on the front, three dominated, the infeasible one nowhere
            (sc->color() == m.front_color ? front_series : grey_series) << sc->name();
            QVERIFY(sc->color() == m.front_color || sc->color() == m.dominated_color);
        }
        QCOMPARE(front_series.size() + grey_series.size(), 2);
        QVERIFY(scatters[0]->color() != scatters[1]->color());
        QStringList texts;
        QList<QRectF> boxes;
        for (auto* t : visible_texts(chart)) {
            texts << t->text();
            boxes << t->mapRectToParent(t->boundingRect());
        }
        texts.sort();
        QCOMPARE(texts, (QStringList{"1536 nodes", "192 nodes", "384 nodes", "48 nodes", "768 nodes", "96 nodes"}));
        for (qsizetype i = 0; i < boxes.size(); ++i) {
            QVERIFY(chart->plotArea().contains(boxes[i]));
            for (qsizetype j = i + 1; j < boxes.size(); ++j) QVERIFY(!boxes[i].intersects(boxes[j]));
        }
        QCOMPARE(visible_legend(chart), (QStringList{"Pareto front", "Dominated", "1 infeasible, not shown"}));
        view->setPoints({});
        QVERIFY(shows_message(chart, "No data"));
        QVERIFY(visible_legend(chart).isEmpty());
    }

    void paretoImageHasFrontAndGreyPoints() {
        auto view = make_pareto_chart(nullptr);
        view->setPoints(cluster_points());
        const ParetoModel m = build_pareto_model(cluster_points());
        const QImage image = render_chart_image(*view, QSize(700, 400), 96);
        QVERIFY2(pixels_of(image, m.front_color) > 100, "no front points");
        QVERIFY2(pixels_of(image, m.dominated_color) > 100, "no dominated points");
    }

    void paretoHoverShowsThePointTooltip() {
        auto view = make_pareto_chart(nullptr);
        show_sized(view->widget());
        view->setPoints(cluster_points());
        auto* chart_view = qobject_cast<QChartView*>(view->widget());
        QChart* chart = chart_view->chart();
        const ParetoModel m = build_pareto_model(cluster_points());
        const QPointF at = chart->mapToPosition(m.points[3].pos, chart->series().value(0)) + QPointF(2, 1);
        const QPoint pos = chart_view->mapFromScene(chart->mapToScene(at));
        QHelpEvent help(QEvent::ToolTip, pos, chart_view->viewport()->mapToGlobal(pos));
        QCoreApplication::sendEvent(chart_view->viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), m.points[3].tooltip);
    }

    void pointLabelsAvoidEachOtherAndTheMarkers() {
        const QRectF bounds(0, 0, 400, 300);
        const std::vector<QPointF> anchors{{100, 100}, {110, 102}, {105, 110}, {390, 150}};
        const std::vector<QSizeF> sizes(anchors.size(), QSizeF(60, 14));
        const std::vector<QRectF> spots = place_point_labels(anchors, sizes, bounds, 5.5);
        QCOMPARE(spots.size(), anchors.size());
        // A lone point gets the spot to its right; here the neighbour's marker is there.
        QCOMPARE(place_point_labels({anchors[0]}, {sizes[0]}, bounds, 5.5)[0].left(), 100 + 5.5 + 3);
        QVERIFY(spots[0].right() < 100);
        for (std::size_t i = 0; i < spots.size(); ++i) {
            QCOMPARE(spots[i].size(), sizes[i]);
            QVERIFY(bounds.contains(spots[i]));
            for (const QPointF& a : anchors) QVERIFY(!spots[i].contains(a));
            for (std::size_t j = i + 1; j < spots.size(); ++j) QVERIFY(!spots[i].intersects(spots[j]));
        }
        QVERIFY(spots[3].right() < 390);  // at the right edge the label goes to the left
        // An obstacle (a line) on the right sends the label elsewhere.
        const auto moved = place_point_labels({{100, 100}}, {QSizeF(60, 14)}, bounds, 5.5, {QRectF(100, 98, 200, 4)});
        QVERIFY(!moved[0].intersects(QRectF(100, 98, 200, 4)));
    }

    void niceRangeFramesTheData() {
        const ValueAxisModel a = nice_range(10.3, 44, "c");
        QVERIFY(a.min <= 10.3 && a.max >= 44 && a.min >= 0);
        QVERIFY(a.tick_count >= 2 && a.tick_count <= 6);
        const double step = (a.max - a.min) / (a.tick_count - 1);
        QVERIFY(std::abs(std::round(a.min / step) * step - a.min) < 1e-9);  // ends on round steps
        const ValueAxisModel b = nice_range(-3, 5, "c");
        QVERIFY(b.min <= -3 && b.max >= 5);
        const ValueAxisModel one = nice_range(7, 7, "c");  // a single value gets a window around it
        QVERIFY(one.min < 7 && one.max > 7);
        QCOMPARE(nice_axis(15.6, "t", 3).max, 20.0);
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
