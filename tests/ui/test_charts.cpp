// Breakdown and memory charts: the library-free models, then the Qt Charts widgets behind
// chart_views.hpp (series contents, legend, empty state, image and SVG export, tooltips).

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>
#include <set>

#include "charts/chart_model.hpp"
#include "charts/chart_views.hpp"
#include "comet/units.hpp"

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
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->data(0) == "legend")
            items << t;
    std::sort(items.begin(), items.end(), [](auto* a, auto* b) {
        return std::pair(a->y(), a->x()) < std::pair(b->y(), b->x());
    });
    QStringList out;
    for (auto* t : items) out << t->text();
    return out;
}

bool shows_no_data(QChart* chart) {
    for (QGraphicsItem* item : chart->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->isVisible() && t->text() == "No data")
            return true;
    return false;
}

double non_white_share(const QImage& image) {
    qsizetype n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) != qRgb(255, 255, 255)) ++n;
    return static_cast<double>(n) / (static_cast<double>(image.width()) * image.height());
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
        QCOMPARE(m.series.size(), std::size_t{8});
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
        for (const StackSeries& s : m.series)
            QCOMPARE(s.segment_labels[0].isEmpty(), s.values[0] < threshold);
        QCOMPARE(m.series[0].segment_labels[0], QString("87.2"));
        QVERIFY(series_named(m, "Pipeline bubble").segment_labels[0].isEmpty());  // 5.8 s < 7.5 s
    }

    void breakdownTooltipNamesBarPartAndShare() {
        const auto m = build_breakdown_model({{"tp8 pp64 dp6", big_iteration()}});
        QCOMPARE(segment_tooltip(m, 4, 0), QString("tp8 pp64 dp6\nDP comm: 0.56 s (0.5 %)"));
        QCOMPARE(segment_tooltip(m, 7, 0), QString("tp8 pp64 dp6\nOther: 30.3 ms (< 0.1 %)"));
        QVERIFY(segment_tooltip(m, 8, 0).isEmpty());
        QVERIFY(segment_tooltip(m, 0, 1).isEmpty());
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
        QCOMPARE(m.series.size(), std::size_t{5});
        QCOMPARE(series_named(m, "Weights").values[0], 4.0);
        QCOMPARE(series_named(m, "Gradients").values[0], 8.0);
        QCOMPARE(series_named(m, "Optimizer").values[0], 24.0);
        QCOMPARE(series_named(m, "Activations").values[0], 19.8);
        QCOMPARE(series_named(m, "Other").values[0], 2.0);
        QCOMPARE(m.totals[0], 57.8);
        QCOMPARE(m.capacity_gib, (std::vector<double>{80.0, 0.0}));
        QCOMPARE(m.over_capacity, (std::vector<bool>{false, false}));
        QVERIFY(!m.any_over_capacity());
        QVERIFY(m.title_suffix.isEmpty());
        QCOMPARE(m.total_labels[0], QString("57.8 / 80 GiB"));
        QVERIFY(m.axis.max >= 80.0);  // the capacity mark stays on the axis
        QCOMPARE(m.axis.title, QString("Memory per accelerator (GiB)"));
    }

    void memoryOverCapacityIsFlagged() {
        const auto m = build_memory_model({{"HBM", hbm(8, 30, 80)}, {"Expanded", hbm(1, 1, 512)}});
        QCOMPARE(m.totals[0], 104.0);
        QCOMPARE(m.over_capacity, (std::vector<bool>{true, false}));
        QVERIFY(m.any_over_capacity());
        QCOMPARE(m.title_suffix, QString("HBM exceeds capacity by 24 GiB"));
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
        QCOMPARE(bars_of(chart)->barSets().size(), 8);
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
        QCOMPARE(visible_legend(chart), (QStringList{"Compute", "Pipeline bubble", "TP comm", "PP comm", "DP comm",
                                                     "Optimizer", "Other"}));
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
                 (QStringList{"Weights", "Gradients", "Optimizer", "Activations", "Other", "Capacity"}));
        std::set<qreal> rows;
        for (QGraphicsItem* item : chart->childItems()) {
            auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (!t || !t->isVisible() || t->data(0) != "legend") continue;
            rows.insert(t->y());
            QVERIFY(chart->rect().contains(t->mapRectToParent(t->boundingRect())));
        }
        QVERIFY(rows.size() >= 2);
        // The overflow message is too long for one line: it moves to a second line, not cut.
        QVERIFY2(chart->title().contains("<br>HBM exceeds capacity by 24 GiB"), qPrintable(chart->title()));
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
            for (int x = 0; x < image.width() && !blue; x += 2)
                blue = image.pixelColor(x, y) == time_categories()[0].color;
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
        QVERIFY(chart->title().contains("HBM exceeds capacity by 24 GiB"));
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
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
