// The Compare and Cost & Sensitivity pages, the chart export dialog and presentation mode,
// offscreen: what the pages show equals the core's numbers, edits are undoable and saved with
// the scenario, bad table input is refused with a message, every chart exports, and
// presentation mode hides the forms and steps through designs and pinned cells.
#include <QtTest>
#include <QJsonObject>
#include <QJsonDocument>
#include <QJsonArray>

#include <QChart>
#include <QChartView>
#include <QDoubleSpinBox>
#include <QLogValueAxis>
#include <QXYSeries>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>

#include "analysis_page.hpp"
#include "comet/compare.hpp"
#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "common/scenario_document.hpp"
#include "compare_page.hpp"
#include "charts/chart_model.hpp"
#include "comet/fsdp.hpp"
#include "explorer_page.hpp"
#include "forms/parameter_panel.hpp"
#include "export_dialog.hpp"
#include "fsdp_page.hpp"
#include "export/chart_renderable.hpp"
#include "report/report.hpp"
#include "report/report_text.hpp"
#include "common/metrics.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "main_window.hpp"
#include "settings.hpp"
#include "common/validation_status.hpp"
#include "ui_fixtures.hpp"

using namespace comet;

namespace {

QString default_path() { return QString::fromStdString((presets_dir() / "scenarios" / "default.comet.json").string()); }

bool close(double a, double b, double rel = 1e-12) { return std::fabs(a - b) <= rel * std::max(1.0, std::fabs(b)); }

// A window on the default scenario (four designs) with every page's first result on screen.
struct Window {
    app::MainWindow w;
    Window() {
        w.resize(1500, 950);
        w.start(default_path());
        w.show();
        settle();
    }
    void settle() {
        w.compare()->waitForResults();
        w.analysis()->waitForResults();
        w.fsdp()->waitForResults();
    }
    [[nodiscard]] const Scenario& scenario() const { return w.document()->scenario(); }
};

QString cell(QTableWidget* t, int row, int col) { return t->item(row, col) ? t->item(row, col)->text() : QString(); }

// The points of a series of the page's chart, by its legend name.
QList<QPointF> chart_points(QWidget* page, const QString& series_name) {
    const auto views = page->findChildren<QChartView*>();
    if (views.size() != 1) return {};
    for (QAbstractSeries* s : views.front()->chart()->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s); xy && xy->name() == series_name) return xy->points();
    return {};
}

bool chart_has_log_y(QWidget* page) {
    const auto views = page->findChildren<QChartView*>();
    for (QAbstractAxis* a : views.value(0)->chart()->axes(Qt::Vertical))
        if (a->isVisible()) return qobject_cast<QLogValueAxis*>(a) != nullptr;
    return false;
}

// The FSDP page shows exactly comet::fsdp_balance's points for the document's configuration: the
// numbers kept, the table (a reason instead of numbers where a size cannot run) and the chart lines.
void check_fsdp_page(app::FsdpPage* page, const Config& c) {
    const auto& shown = page->balance();
    QVERIFY(shown.has_value());
    const std::vector<int> dps = fsdp_default_dps(c);
    QCOMPARE(shown->dps, dps);
    const std::vector<FsdpPoint> points = fsdp_balance(c, dps);
    QCOMPARE(shown->points.size(), points.size());
    QTableWidget* t = page->table();
    QCOMPARE(t->rowCount(), static_cast<int>(points.size()));
    const bool log_y = chart_has_log_y(page);
    QList<QPointF> needed, allowed;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const FsdpPoint& a = shown->points[i];
        const FsdpPoint& b = points[i];
        QCOMPARE(a.dp, b.dp);
        QCOMPARE(a.gpus, b.gpus);
        QCOMPARE(a.reason, b.reason);
        QCOMPARE(a.tokens_to_hide, b.tokens_to_hide);
        QCOMPARE(a.max_tokens_hbm, b.max_tokens_hbm);
        QCOMPARE(a.max_microbatch, b.max_microbatch);
        QCOMPARE(a.fsdp_comm_s, b.fsdp_comm_s);
        const int row = static_cast<int>(i);
        QCOMPARE(cell(t, row, app::FsdpPage::col_dp), QString::number(b.dp));
        QCOMPARE(cell(t, row, app::FsdpPage::col_gpus), QString::number(b.gpus));
        if (b.reason != Infeasible::none) {
            QVERIFY(cell(t, row, app::FsdpPage::col_needed).contains(QString::fromUtf8(describe(b.reason).data())));
            QCOMPARE(t->columnSpan(row, app::FsdpPage::col_needed), app::FsdpPage::col_count - app::FsdpPage::col_needed);
            continue;
        }
        QCOMPARE(cell(t, row, app::FsdpPage::col_needed), ui::format_tokens(b.tokens_to_hide));
        if (b.max_tokens_hbm > 0) {
            QCOMPARE(cell(t, row, app::FsdpPage::col_allowed), ui::format_tokens(b.max_tokens_hbm));
            QCOMPARE(cell(t, row, app::FsdpPage::col_microbatch), QString::number(b.max_microbatch));
        }
        QCOMPARE(cell(t, row, app::FsdpPage::col_traffic), ui::format_seconds(b.fsdp_comm_s));
        const QString verdict = b.hidden()             ? QStringLiteral("hidden")
                                : b.max_tokens_hbm > 0 ? QStringLiteral("exposed")
                                                       : QStringLiteral("no sequence fits in HBM");
        QCOMPARE(cell(t, row, app::FsdpPage::col_verdict), verdict);
        const double x = static_cast<double>(b.gpus);
        if (!log_y || b.tokens_to_hide > 0) needed << QPointF(x, b.tokens_to_hide);
        if (!log_y || b.max_tokens_hbm > 0) allowed << QPointF(x, b.max_tokens_hbm);
    }
    QVERIFY(!needed.isEmpty());
    const ui::FsdpChartModel names = ui::build_fsdp_model({});
    QCOMPARE(chart_points(page, names.needed_name), needed);
    QCOMPARE(chart_points(page, names.allowed_name), allowed);
}

}  // namespace

class TestPages : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate_user_state(QStringLiteral("test_pages")); }

    // A DLRM's comparison counts its cost per million samples, not tokens, and its strategies
    // as a DLRM's.
    void compareSpeaksSamplesForADlrm() {
        app::MainWindow w;
        w.resize(1500, 950);
        w.start(QString::fromStdString((presets_dir() / "scenarios" / "dlrm-2tb-memory-expansion.comet.json").string()), false);
        w.show();
        w.compare()->waitForResults();
        QTableWidget* t = w.compare()->table();
        QCOMPARE(t->horizontalHeaderItem(app::ComparePage::col_cost)->text(), QStringLiteral("$ / M samples"));
        QCOMPARE(t->rowCount(), 4);
        QVERIFY2(cell(t, 0, app::ComparePage::col_strategy).contains(QStringLiteral("table-wise")),
                 qPrintable(cell(t, 0, app::ComparePage::col_strategy)));
        QVERIFY(!cell(t, 0, app::ComparePage::col_strategy).contains(QStringLiteral("tp")));
    }

    // Speedups, times and strategies on screen are the core's: the same comparison computed
    // directly, and each speedup the ratio of the baseline's iteration time to the design's.
    void compareShowsTheCoresRatios() {
        Window win;
        const Scenario& s = win.scenario();
        QCOMPARE(s.designs.size(), std::size_t{4});
        const auto& shown = win.w.compare()->comparison();
        QVERIFY(shown.has_value());
        const Comparison direct = compare_designs(s);
        QCOMPARE(shown->designs.size(), direct.designs.size());
        const double base = direct.designs[static_cast<std::size_t>(s.baseline_design)].result.iteration_s;
        QTableWidget* t = win.w.compare()->table();
        QCOMPARE(t->rowCount(), 4);
        QCOMPARE(t->horizontalHeaderItem(app::ComparePage::col_cost)->text(), QStringLiteral("$ / M tokens"));
        for (std::size_t i = 0; i < direct.designs.size(); ++i) {
            const DesignOutcome& a = shown->designs[i];
            const DesignOutcome& b = direct.designs[i];
            QVERIFY(a.result.feasible);
            QCOMPARE(a.result.iteration_s, b.result.iteration_s);
            QVERIFY(close(a.speedup, base / a.result.iteration_s));
            const int row = static_cast<int>(i);
            QCOMPARE(cell(t, row, app::ComparePage::col_name), QString::fromStdString(s.designs[i].name));
            QCOMPARE(cell(t, row, app::ComparePage::col_speedup), QStringLiteral("%1x").arg(a.speedup, 0, 'f', 2));
            if (s.designs[i].best_strategy)
                QVERIFY(cell(t, row, app::ComparePage::col_strategy).contains(QString::fromStdString(format_strategy(b.config.strategy))));
        }
        // One bar per design with its time breakdown; the baseline is labelled as such.
        const auto& bars = win.w.compare()->shownBars();
        QCOMPARE(bars.size(), std::size_t{4});
        QVERIFY(bars[0].label.startsWith(QStringLiteral("baseline")));
        for (std::size_t i = 0; i < bars.size(); ++i) QVERIFY(close(bars[i].time.total(), direct.designs[i].result.time.total(), 1e-9));
    }

    // Every design carries how far to trust it (issue 40): the band of its node's and software's
    // published runs, as the core computes it; the tooltip applies it to the design's own time
    // and costs; an MFU above every published run on the node is flagged, and only then.
    void compareShowsEachDesignsTrustBand() {
        Window win;
        const Scenario& s = win.scenario();
        const auto& shown = win.w.compare()->comparison();
        QVERIFY(shown.has_value());
        const std::vector<TrustBand>& bands = win.w.compare()->trustBands();
        QCOMPARE(bands.size(), shown->designs.size());
        QTableWidget* t = win.w.compare()->table();
        QCOMPARE(t->horizontalHeaderItem(app::ComparePage::col_band)->text(), QStringLiteral("Likely error"));
        std::vector<std::string> errors;
        const auto nodes = load_node_presets(errors);
        const auto software = load_software_presets(errors);
        int flagged = 0;
        for (std::size_t i = 0; i < bands.size(); ++i) {
            const int row = static_cast<int>(i);
            const DesignOutcome& o = shown->designs[i];
            const TrustBand direct =
                trust_band_for(ui::shipped_validation(), o.config.node, nodes, o.config.software, s.software_info.name, software);
            QCOMPARE(bands[i].runs, direct.runs);
            QCOMPARE(bands[i].low, direct.low);
            QCOMPARE(bands[i].high, direct.high);
            QVERIFY2(bands[i].validated(), qPrintable(cell(t, row, app::ComparePage::col_band)));  // shipped nodes, shipped software
            QVERIFY2(bands[i].low > 0 && bands[i].low <= bands[i].high, qPrintable(ui::trust_range_text(bands[i])));  // a range
            QCOMPARE(cell(t, row, app::ComparePage::col_band), ui::trust_range_text(bands[i]));
            const QString tip = t->item(row, app::ComparePage::col_band)->toolTip();
            QVERIFY2(tip.contains(ui::format_seconds(bands[i].low * o.result.iteration_s)) &&
                         tip.contains(ui::format_seconds(bands[i].high * o.result.iteration_s)) &&
                         tip.contains(ui::format_duration(bands[i].high * o.cost.time_to_train_s)) &&
                         tip.contains(QString::fromStdString(bands[i].basis)),
                     qPrintable(tip));
            const bool flag = bands[i].mfu_above_published(o.result.mfu);
            flagged += flag ? 1 : 0;
            QCOMPARE(cell(t, row, app::ComparePage::col_mfu).endsWith(QStringLiteral("\u26A0")), flag);
            QCOMPARE(t->item(row, app::ComparePage::col_mfu)->toolTip().isEmpty(), !flag);
        }
        QVERIFY(flagged > 0);  // the best A100 strategy is above every published A100 run
        // An edited node is not validated on its own: the software's runs over every node are.
        std::vector<Design> designs = s.designs;
        designs[1].node.hbm_bandwidth_gbps *= 2;
        designs[1].node_info.name = "A100, HBM doubled";
        Scenario edited = s;
        edited.designs = designs;
        win.w.document()->setScenario(edited, QStringLiteral("edit"));
        win.settle();
        QTRY_VERIFY(win.w.compare()->trustBands().size() == designs.size());
        QVERIFY2(win.w.compare()->trustBands()[1].basis.find("any hardware") != std::string::npos,
                 win.w.compare()->trustBands()[1].basis.c_str());
    }

    void baselineChangesTheRatios() {
        Window win;
        QSignalSpy spy(win.w.compare(), &app::ComparePage::compared);
        win.w.compare()->setBaseline(2);
        win.settle();
        QCOMPARE(win.scenario().baseline_design, 2);
        const auto& c = *win.w.compare()->comparison();
        QCOMPARE(c.designs[2].speedup, 1.0);
        QVERIFY(close(c.designs[0].speedup, c.designs[2].result.iteration_s / c.designs[0].result.iteration_s));
        QVERIFY(c.designs[0].speedup < 1.0);  // the A100 baseline is slower than H100 x384
        win.w.document()->undoStack()->undo();
        win.settle();
        QCOMPARE(win.scenario().baseline_design, 0);
    }

    // No speedup rests on a baseline that cannot run (issue 40 item 2): the table shows "–", the
    // breakdown's bars say "no baseline" (they said "0.00x"), and the line above the table names the
    // baseline and what to do; another baseline brings the ratios back.
    void anInfeasibleBaselineGivesNoSpeedups() {
        Window win;
        Scenario s = win.scenario();
        QCOMPARE(s.baseline_design, 0);
        s.designs[0].best_strategy = false;
        s.designs[0].strategy.tp = 1;  // Megatron 1T whole on every A100: it cannot fit
        s.designs[0].strategy.pp = 1;
        s.designs[0].strategy.dp = s.designs[0].nodes * s.config.node.accelerators;
        s.designs[0].strategy.interleave = 1;
        win.w.document()->setScenario(s, QStringLiteral("test"));
        win.settle();
        const Comparison& c = *win.w.compare()->comparison();
        QVERIFY(!c.designs[0].result.feasible);
        int feasible = 0;
        for (const DesignOutcome& o : c.designs) {
            QCOMPARE(o.speedup, 0.0);
            feasible += o.result.feasible ? 1 : 0;
        }
        QVERIFY(feasible >= 2);
        QTableWidget* t = win.w.compare()->table();
        for (int row = 1; row < t->rowCount(); ++row)
            if (c.designs[static_cast<std::size_t>(row)].result.feasible)
                QCOMPARE(cell(t, row, app::ComparePage::col_speedup), QStringLiteral("\u2013"));
        const auto& bars = win.w.compare()->shownBars();
        QCOMPARE(static_cast<int>(bars.size()), feasible);
        for (const ui::BreakdownBar& b : bars) {
            QVERIFY2(b.label.startsWith(QStringLiteral("no baseline \u00b7 ")), qPrintable(b.label));
            QVERIFY2(!b.label.contains(QStringLiteral("0.00x")) && !b.short_label.contains(QStringLiteral("0.00x")),
                     qPrintable(b.short_label));
        }
        const QString hint = win.w.compare()->hintText();
        QVERIFY2(hint.contains(QStringLiteral("The baseline #1 cannot run, so no speedup is shown")), qPrintable(hint));
        win.w.compare()->setBaseline(1);
        win.settle();
        const Comparison& again = *win.w.compare()->comparison();
        QCOMPARE(again.designs[1].speedup, 1.0);
        QVERIFY(again.designs[2].speedup > 0);
        QVERIFY(win.w.compare()->shownBars()[0].label.startsWith(QStringLiteral("baseline \u00b7 ")));
        QVERIFY(!win.w.compare()->hintText().contains(QStringLiteral("cannot run, so no speedup")));
    }

    // Slides (issue 40, item 7): the comparison table, a one-page answer and the current page as
    // 16:9 PNG, SVG and PDF, with the texts the Compare page shows and the assumptions (model,
    // batch, precision, software, hardware) under them; chart exports carry the assumptions too.
    void slidesShowThePagesFiguresAndTheAssumptions() {
        using Kind = app::MainWindow::SlideKind;
        Window win;
        win.w.pages()->setCurrentWidget(win.w.compare());
        win.settle();
        QTest::qWait(300);  // the charts take the page's size, as on screen before a person exports
        const Scenario& s = win.scenario();
        const QString assumptions = win.w.assumptionsText();
        QCOMPARE(assumptions, QString::fromStdString(assumptions_line(s)));
        const QString model = QString::fromStdString(s.model_info.name.substr(0, s.model_info.name.find(" (")));
        const QString node = QString::fromStdString(s.node_info.name.substr(0, s.node_info.name.find(" (")));
        QVERIFY(!model.isEmpty() && !node.isEmpty());
        for (const QString& part : {model,
                                    QStringLiteral("global batch %1 \u00d7 %2 tokens")
                                        .arg(QLocale(QLocale::English).toString(s.config.training.global_batch),
                                             QLocale(QLocale::English).toString(s.config.model.seq_len)),
                                    QString::fromUtf8(to_string(s.config.training.precision).data()).toUpper(),
                                    QString::fromStdString(s.software_info.name.substr(0, s.software_info.name.find(" ("))),
                                    QStringLiteral("%1 \u00d7 %2").arg(s.config.cluster.nodes).arg(node)})
            QVERIFY2(assumptions.contains(part), qPrintable(assumptions + QStringLiteral(" lacks ") + part));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QTableWidget* table = win.w.compare()->table();
        const Comparison& c = *win.w.compare()->comparison();

        // The table slide: every cell as the page shows it, the fastest design that runs highlighted.
        const std::optional<ui::Slide> t = win.w.slide(Kind::comparison_table);
        QVERIFY(t && t->table);
        QCOMPARE(static_cast<int>(t->table->rows.size()), table->rowCount());
        QCOMPARE(t->table->headers.size(), app::ComparePage::col_count + 1);
        int fastest = -1;
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(t->table->rows[static_cast<std::size_t>(row)].value(0), QStringLiteral("#%1").arg(row + 1));
            for (int col = 0; col < app::ComparePage::col_count; ++col)
                QCOMPARE(t->table->rows[static_cast<std::size_t>(row)].value(col + 1), cell(const_cast<QTableWidget*>(table), row, col));
            const Result& r = c.designs[static_cast<std::size_t>(row)].result;
            if (r.feasible && (fastest < 0 || r.iteration_s < c.designs[static_cast<std::size_t>(fastest)].result.iteration_s))
                fastest = row;
        }
        QVERIFY(fastest >= 0);
        QCOMPARE(t->table->highlighted_row, fastest);
        QCOMPARE(t->footer, assumptions);
        const QString svg = dir.filePath(QStringLiteral("table.svg"));
        QCOMPARE(win.w.exportSlide(Kind::comparison_table, svg), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg_text = QString::fromUtf8(f.readAll());
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString time = cell(const_cast<QTableWidget*>(table), row, app::ComparePage::col_time);
            if (c.designs[static_cast<std::size_t>(row)].result.feasible)
                QVERIFY2(svg_text.contains(time.toHtmlEscaped()), qPrintable(time));
        }
        QVERIFY2(svg_text.contains(model.toHtmlEscaped()), "the footer's model name is in the SVG");

        // PNG: 16:9 at 3840 x 2160 pixels, text in the footer's strip; PDF: one 16:9 page.
        const QString png = dir.filePath(QStringLiteral("table.png"));
        QCOMPARE(win.w.exportSlide(Kind::comparison_table, png), QString());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(3840, 2160));
        const auto dark_in = [](const QImage& img, int top, int bottom) {
            int dark = 0;
            for (int y = top; y < bottom; y += 2)
                for (int x = 0; x < img.width(); x += 2) dark += qGray(img.pixel(x, y)) < 128 ? 1 : 0;
            return dark;
        };
        QVERIFY2(dark_in(image, image.height() * 94 / 100, image.height()) > 100, "the footer's text is painted");
        const QString pdf = dir.filePath(QStringLiteral("answer.pdf"));
        QCOMPARE(win.w.exportSlide(Kind::answer, pdf), QString());
        QFile pf(pdf);
        QVERIFY(pf.open(QIODevice::ReadOnly));
        const QByteArray pdf_bytes = pf.readAll();
        QVERIFY(pdf_bytes.startsWith("%PDF"));
        static const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
        const QRegularExpressionMatch m = box.match(QString::fromLatin1(pdf_bytes));
        QVERIFY2(m.hasMatch(), "the PDF names its page size");
        QVERIFY2(std::abs(m.captured(1).toDouble() / m.captured(2).toDouble() - 16.0 / 9.0) < 0.01, qPrintable(m.captured(0)));

        // The one-page answer: the question, the fastest design with the figures of its row.
        const std::optional<ui::Slide> a = win.w.slide(Kind::answer);
        QVERIFY(a);
        QVERIFY2(a->title.contains(model), qPrintable(a->title));
        QVERIFY(!a->lines.isEmpty());
        const QString& answer = a->lines.front();
        QVERIFY2(answer.startsWith(QString::fromStdString(c.designs[static_cast<std::size_t>(fastest)].name) + QLatin1Char(':')),
                 qPrintable(answer));
        QVERIFY2(answer.contains(cell(const_cast<QTableWidget*>(table), fastest, app::ComparePage::col_time)), qPrintable(answer));
        QVERIFY2(answer.contains(cell(const_cast<QTableWidget*>(table), fastest, app::ComparePage::col_band)), qPrintable(answer));
        QCOMPARE(a->chart, win.w.compare()->breakdownChart());

        // The page as it is on screen.
        const std::optional<ui::Slide> p = win.w.slide(Kind::page);
        QVERIFY(p);
        QCOMPARE(p->widget.data(), win.w.pages()->currentWidget());
        const QString page_png = dir.filePath(QStringLiteral("page.png"));
        QCOMPARE(win.w.exportSlide(Kind::page, page_png), QString());
        const QImage page_image(page_png);
        QCOMPARE(page_image.size(), QSize(3840, 2160));
        QVERIFY2(dark_in(page_image, page_image.height() / 5, page_image.height() * 4 / 5) > 1000, "the page is painted in the body");
        if (const QByteArray shots = qgetenv("COMET_SHOT_DIR"); !shots.isEmpty()) {  // for looking at them
            QFile::copy(png, QString::fromLocal8Bit(shots) + QStringLiteral("/slide-table.png"));
            QFile::copy(page_png, QString::fromLocal8Bit(shots) + QStringLiteral("/slide-page.png"));
            QCOMPARE(win.w.exportSlide(Kind::answer, QString::fromLocal8Bit(shots) + QStringLiteral("/slide-answer.png")), QString());
        }

        // A path that cannot be written or a type that is not PNG, SVG or PDF: the reason, no file.
        const QString bad_dir = win.w.exportSlide(Kind::comparison_table, QStringLiteral("/nonexistent-dir/slide.png"));
        QVERIFY2(bad_dir.contains(QStringLiteral("/nonexistent-dir/slide.png")), qPrintable(bad_dir));
        const QString bad_type = win.w.exportSlide(Kind::answer, dir.filePath(QStringLiteral("slide.pptx")));
        QVERIFY2(bad_type.contains(QStringLiteral(".pptx")) && bad_type.contains(QStringLiteral(".png, .svg or .pdf")),
                 qPrintable(bad_type));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("slide.pptx"))));

        // Every chart export carries the assumptions (a check box can drop them).
        int current = 0;
        app::ExportDialog dialog(win.w.charts(&current), current);
        dialog.setFooter(assumptions);
        QCOMPARE(dialog.footer(), assumptions);
        const QString chart_svg = dir.filePath(QStringLiteral("chart.svg"));
        QCOMPARE(dialog.exportTo(chart_svg), QString());
        QFile cf(chart_svg);
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QVERIFY2(QString::fromUtf8(cf.readAll()).contains(model.toHtmlEscaped()), "the chart's footer names the model");

        // Nothing to show: no designs, then designs that cannot run.
        Scenario none = s;
        none.designs.clear();
        win.w.document()->setScenario(none, QStringLiteral("test"));
        win.settle();
        QString why;
        QVERIFY(!win.w.slide(Kind::comparison_table, &why));
        QVERIFY2(why.contains(QStringLiteral("no designs")), qPrintable(why));
        QVERIFY(!win.w.exportSlide(Kind::answer, dir.filePath(QStringLiteral("none.png"))).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("none.png"))));
    }

    // Ctrl+Z with the focus in a field undoes the document's last change, as anywhere else in the
    // window; while a value is being typed it first undoes the typing (issue 40).
    void ctrlZInAFieldUndoesTheDocument() {
        Window win;
        win.w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&win.w));
        auto* spin = qobject_cast<QSpinBox*>(win.w.parameters()->editorFor(QStringLiteral("training.global_batch")));
        QVERIFY(spin);
        const int before = spin->value();
        const int steps = win.w.document()->undoStack()->count();
        spin->setFocus(Qt::OtherFocusReason);
        QTRY_VERIFY(spin->hasFocus());
        spin->selectAll();
        QTest::keyClicks(spin, QString::number(before * 2));
        QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier);  // being typed: the typing is undone
        QCOMPARE(win.w.document()->undoStack()->count(), steps);
        QCOMPARE(win.w.document()->config().training.global_batch, before);
        spin->selectAll();
        QTest::keyClicks(spin, QString::number(before * 2));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(win.w.document()->config().training.global_batch, before * 2);
        QCOMPARE(win.w.document()->undoStack()->count(), steps + 1);
        QVERIFY(spin->hasFocus());
        QTest::keyClick(spin, Qt::Key_Z, Qt::ControlModifier);  // entered: the document's edit is undone
        QCOMPARE(win.w.document()->config().training.global_batch, before);
        QCOMPARE(spin->value(), before);
        QVERIFY(!QKeySequence::keyBindings(QKeySequence::Redo).isEmpty());
        const QList<QKeySequence> redo = QKeySequence::keyBindings(QKeySequence::Redo);
        QTest::keySequence(spin, redo.first());  // and redone
        QCOMPARE(win.w.document()->config().training.global_batch, before * 2);
        QCOMPARE(spin->value(), before * 2);
    }

    // Adding, removing and editing designs are undoable document edits, saved with the file.
    void designEditsAreUndoableAndSaved() {
        Window win;
        app::ComparePage* page = win.w.compare();
        QVERIFY(!page->addCurrent(true));  // full: four designs
        page->removeDesign(1);
        win.settle();
        QCOMPARE(win.scenario().designs.size(), std::size_t{3});
        QCOMPARE(page->table()->rowCount(), 3);
        QVERIFY(page->addPreset(QStringLiteral("hgx-h200"), 96));
        win.settle();
        QCOMPARE(win.scenario().designs.size(), std::size_t{4});
        const Design& added = win.scenario().designs.back();
        QCOMPARE(added.nodes, 96);
        QVERIFY(added.best_strategy);
        QCOMPARE(added.node.hbm_capacity_gib, find_node_preset("hgx-h200")->node.hbm_capacity_gib);
        QVERIFY(page->comparison()->designs.back().result.feasible);

        // Table edits: a good node count applies, a bad one is refused with a message.
        QTableWidget* t = page->table();
        t->item(3, app::ComparePage::col_nodes)->setText(QStringLiteral("48"));
        win.settle();
        QCOMPARE(win.scenario().designs[3].nodes, 48);
        QSignalSpy status(page, &app::ComparePage::statusMessage);
        t->item(3, app::ComparePage::col_nodes)->setText(QStringLiteral("zero"));
        QCOMPARE(status.size(), 1);
        QVERIFY(status.front().front().toString().contains(QStringLiteral("\"zero\": must be an integer from 1 to")));
        QCOMPARE(win.scenario().designs[3].nodes, 48);
        QCOMPARE(cell(t, 3, app::ComparePage::col_nodes), QStringLiteral("48"));  // the table shows the document again
        t->item(3, app::ComparePage::col_strategy)->setCheckState(Qt::Unchecked);
        win.settle();
        QVERIFY(!win.scenario().designs[3].best_strategy);

        // Saved and read back: the designs are in the file.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cmp.comet.json"));
        QCOMPARE(win.w.document()->save(file), QString());
        const Loaded<Scenario> back = load_scenario_file(file.toStdString());
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back.value->designs.size(), std::size_t{4});
        QCOMPARE(back.value->designs[3].nodes, 48);
        QVERIFY(!back.value->designs[3].best_strategy);

        // Undo walks back through every edit to the four shipped designs.
        while (win.w.document()->undoStack()->canUndo()) win.w.document()->undoStack()->undo();
        win.settle();
        QCOMPARE(win.scenario().designs.size(), std::size_t{4});
        QCOMPARE(win.scenario().designs[1].name, std::string("A100 x384, best strategy"));
    }

    // Designs may differ in software (issue 38): a preset design on a software preset of its own,
    // changed and reverted per row, undoable, saved, and run on that software by the comparison.
    void designsRunOnTheirOwnSoftware() {
        Window win;
        app::ComparePage* page = win.w.compare();
        page->removeDesign(3);
        QVERIFY(!page->addPreset(QStringLiteral("dgx-h100"), 8, QStringLiteral("no-such-stack")));
        QVERIFY(page->addPreset(QStringLiteral("dgx-h100"), 8, QStringLiteral("pytorch-eager")));
        win.settle();
        const auto eager = find_software_preset("pytorch-eager");
        QVERIFY(eager.has_value());
        const Design& added = win.scenario().designs.back();
        QVERIFY(added.own_software);
        QVERIFY(added.software == eager->software);
        QVERIFY(QString::fromStdString(added.name).contains(QString::fromStdString(eager->info.name)));
        QVERIFY(page->comparison()->designs.back().config.software == eager->software);
        QVERIFY(cell(page->table(), 3, app::ComparePage::col_node).contains(QString::fromStdString(eager->info.name)));
        QVERIFY(page->table()->item(3, app::ComparePage::col_node)->toolTip().contains(QString::fromStdString(eager->info.name)));
        // Another row moves to another stack; the scenario's software is untouched.
        const SoftwareSpec scenario_software = win.scenario().config.software;
        QVERIFY(page->setDesignSoftware(1, QStringLiteral("torchtitan-fsdp2")));
        QVERIFY(!page->setDesignSoftware(1, QStringLiteral("no-such-stack")));
        QVERIFY(!page->setDesignSoftware(7, QStringLiteral("torchtitan-fsdp2")));
        win.settle();
        QVERIFY(win.scenario().designs[1].own_software);
        QVERIFY(page->comparison()->designs[1].config.software == find_software_preset("torchtitan-fsdp2")->software);
        QVERIFY(win.scenario().config.software == scenario_software);
        // Saved and read back with the file.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("sw.comet.json"));
        QCOMPARE(win.w.document()->save(file), QString());
        const Loaded<Scenario> back = load_scenario_file(file.toStdString());
        QVERIFY2(back.ok(), back.error_text().c_str());
        QVERIFY(back.value->designs[1].own_software);
        QVERIFY(back.value->designs[3].software == eager->software);
        // Back to the scenario's software; undo brings the design's own back.
        QVERIFY(page->setDesignSoftware(1, QString()));
        win.settle();
        QVERIFY(!win.scenario().designs[1].own_software);
        QVERIFY(page->comparison()->designs[1].config.software == scenario_software);
        win.w.document()->undoStack()->undo();
        win.settle();
        QVERIFY(win.scenario().designs[1].own_software);
    }

    void comparisonDataExports() {
        Window win;
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        QCOMPARE(win.w.compare()->exportData(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QVERIFY(lines.front().startsWith("design,baseline,nodes,accelerators"));
        QCOMPARE(lines.size(), 6);  // header, 4 designs, final newline
        QVERIFY(lines[3].startsWith("\"H100 x384, best strategy\",0,384,3072,1,"));
        // The export carries the bands on screen (one figure everywhere): runs, basis, low, high, flag.
        QVERIFY(lines.front().endsWith("trust_runs,trust_basis,likely_low,likely_high,mfu_above_published"));
        const std::vector<TrustBand>& bands = win.w.compare()->trustBands();
        const auto& designs = win.w.compare()->comparison()->designs;
        for (std::size_t i = 0; i < bands.size(); ++i) {
            const QByteArray tail =
                QStringLiteral(",%1,\"%2\",%3,%4,%5")
                    .arg(bands[i].runs)
                    .arg(QString::fromStdString(bands[i].basis), QString::fromStdString(format_printf("%.10g", bands[i].low)),
                         QString::fromStdString(format_printf("%.10g", bands[i].high)),
                         bands[i].mfu_above_published(designs[i].result.mfu) ? QStringLiteral("1") : QStringLiteral("0"))
                    .toUtf8();
            QVERIFY2(lines[static_cast<qsizetype>(i) + 1].endsWith(tail), lines[static_cast<qsizetype>(i) + 1].constData());
        }
        const QString json = dir.filePath(QStringLiteral("c.json"));
        QCOMPARE(win.w.compare()->exportData(json), QString());
        QFile jf(json);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const QJsonArray jd = QJsonDocument::fromJson(jf.readAll()).object().value(QStringLiteral("designs")).toArray();
        QCOMPARE(jd.size(), static_cast<qsizetype>(bands.size()));
        for (qsizetype i = 0; i < jd.size(); ++i)
            QCOMPARE(
                jd[i].toObject().value(QStringLiteral("trust")).toObject().value(QStringLiteral("measured_over_predicted_high")).toDouble(),
                bands[static_cast<std::size_t>(i)].high);
        QVERIFY(win.w.compare()->exportData(dir.filePath(QStringLiteral("c.xls"))).contains(QStringLiteral("use .csv or .json")));
    }

    // Cost figures follow from the inputs; a price edit is undoable; the tornado is the core's.
    void analysisFollowsThePrices() {
        Window win;
        app::AnalysisPage* page = win.w.analysis();
        const auto& a = page->analysis();
        // The page says which software change buys most, as the core prices it.
        QVERIFY(a.has_value() && !a->software.empty());
        QVERIFY(page->costSummaryHtml().contains(QStringLiteral("Which software change buys most")));
        for (const SoftwareChange& c : a->software)
            QVERIFY2(page->costSummaryHtml().contains(QString::fromStdString(c.what).toHtmlEscaped()) &&
                         page->costSummaryHtml().contains(ui::format_seconds(c.time_s)),
                     qPrintable(page->costSummaryHtml()));
        QVERIFY(a.has_value());
        const Scenario& s = win.scenario();
        const Result r = evaluate(s.config);
        QCOMPARE(a->current.iteration_s, r.iteration_s);
        const double gpus = 3072, t = r.iteration_s;
        const double cost = gpus * t / 3600 * s.cost.price_per_gpu_hour_usd +
                            s.config.node.power_kw * 384 * t / 3600 * s.cost.pue * s.cost.price_per_kwh_usd;
        QVERIFY(close(a->cost.cost_per_iteration_usd, cost, 1e-9));
        QVERIFY2(page->costSummaryHtml().contains(QString::fromStdString(format_usd(cost))), qPrintable(page->costSummaryHtml()));

        // The tornado's order is the core's sensitivity() order.
        const auto bars = sensitivity(s.config, page->fraction(), SearchOptions{});
        QCOMPARE(a->tornado.size(), bars.size());
        for (std::size_t i = 0; i < bars.size(); ++i) {
            QCOMPARE(a->tornado[i].knob, bars[i].knob);
            QCOMPARE(a->tornado[i].time_high_s, bars[i].time_high_s);
        }
        QCOMPARE(a->tornado.front().knob, Knob::matrix_tflops);

        // Doubling the GPU-hour price through the form doubles the GPU part of the cost.
        auto* price = page->findChild<QDoubleSpinBox*>();
        QVERIFY(price);
        QCOMPARE(price->value(), s.cost.price_per_gpu_hour_usd);
        price->setValue(2 * s.cost.price_per_gpu_hour_usd);
        win.settle();
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 3.6);
        QVERIFY(close(page->analysis()->cost.gpu_cost_per_iteration_usd, 2 * gpus * t / 3600 * 1.8, 1e-9));
        win.w.document()->undoStack()->undo();
        win.settle();
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 1.8);
        QCOMPARE(price->value(), 1.8);

        // Pareto over node counts: each distinct node of the designs at each count.
        page->setParetoNodes(QStringLiteral("192, 384"));
        win.settle();
        QCOMPARE(page->analysis()->pareto.size(), std::size_t{4});  // A100 and H100 nodes x 2 sizes
        QString problem;
        QVERIFY(app::parse_node_list(QStringLiteral("96, x"), problem).empty());
        QVERIFY(problem.contains(QStringLiteral("\"x\": must be an integer from 1 to 10000000")));
    }

    // One node, one price (issue 40): a price typed for a design on the scenario's node is the
    // scenario's price, so the Compare table, the Cost page and the report's comparison and cost
    // pages print the same figures for it; another node's price is every design's on that node.
    void oneNodeHasOnePriceOnEveryPageAndInTheReport() {
        Window win;
        QVERIFY(win.w.openFile(QString::fromStdString((presets_dir() / "scenarios" / "gb300-vs-2x-h100-400b-moe.comet.json").string())));
        win.settle();
        QTableWidget* t = win.w.compare()->table();
        int price_col = -1, train_col = -1;
        for (int col = 0; col < t->columnCount(); ++col) {
            if (t->horizontalHeaderItem(col)->text() == QStringLiteral("$/GPU-h")) price_col = col;
            if (t->horizontalHeaderItem(col)->text() == QStringLiteral("Time, cost to train")) train_col = col;
        }
        QVERIFY(price_col >= 0 && train_col >= 0);
        // Rows 0 and 2 are GB300, the scenario's node; 1 is DGX H100, 3 GB200.
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 18.0);
        QCOMPARE(cell(t, 0, price_col), QStringLiteral("$18.00 scenario"));
        QVERIFY2(t->item(0, price_col)->toolTip().contains(QStringLiteral("the scenario's node")),
                 qPrintable(t->item(0, price_col)->toolTip()));
        t->item(0, price_col)->setText(QStringLiteral("$6.00"));
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 6.0);
        QCOMPARE(win.scenario().designs[0].price_per_gpu_hour_usd, 0.0);
        QCOMPARE(cell(t, 2, price_col), QStringLiteral("$6.00 scenario"));
        t->item(1, price_col)->setText(QStringLiteral("$2.49"));
        QCOMPARE(win.scenario().designs[1].price_per_gpu_hour_usd, 2.49);
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 6.0);
        // One undo step per typed price; the node's price comes back whole.
        win.w.document()->undoStack()->undo();
        QCOMPARE(win.scenario().designs[1].price_per_gpu_hour_usd, 2.99);
        win.w.document()->undoStack()->undo();
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 18.0);
        win.w.document()->undoStack()->redo();
        win.w.document()->undoStack()->redo();
        QCOMPARE(win.scenario().cost.price_per_gpu_hour_usd, 6.0);
        QCOMPARE(win.scenario().designs[1].price_per_gpu_hour_usd, 2.49);

        win.w.pages()->setCurrentWidget(win.w.compare());
        win.settle();
        win.w.pages()->setCurrentWidget(win.w.analysis());
        win.settle();
        const auto& cmp = win.w.compare()->comparison();
        const auto& a = win.w.analysis()->analysis();
        QVERIFY(cmp.has_value() && cmp->designs.size() == 4 && a.has_value());
        // The scenario's strategy is design 0's (the file says so): one cost, wherever it is shown.
        QCOMPARE(cmp->designs[0].config, a->scenario.config);
        const CostReport& given = a->cost;
        QVERIFY(given.valid && given.cost_to_train_usd > 0);
        QCOMPARE(given.gpu_hour_price_usd, 6.0);
        QCOMPARE(cmp->designs[0].cost.cost_to_train_usd, given.cost_to_train_usd);
        QCOMPARE(cmp->designs[2].cost.gpu_hour_price_usd, 6.0);
        QCOMPARE(cmp->designs[1].cost.gpu_hour_price_usd, 2.49);
        const QString money = QString::fromStdString(format_usd(given.cost_to_train_usd));
        QVERIFY2(cell(t, 0, train_col).contains(money), qPrintable(cell(t, 0, train_col) + " vs " + money));
        QVERIFY2(win.w.analysis()->costSummaryHtml().contains(money), qPrintable(win.w.analysis()->costSummaryHtml()));

        // The report computes its pages from the same scenario: page 3 (comparison) and page 4
        // (cost) print the same figures as the pages.
        ui::ReportOptions options;
        options.with_grid = false;
        const ui::ReportData d = ui::compute_report_data(win.scenario(), options);
        QCOMPARE(d.cost.cost_to_train_usd, given.cost_to_train_usd);
        QCOMPARE(d.comparison.designs.size(), std::size_t{4});
        for (std::size_t i = 0; i < 4; ++i)
            QCOMPARE(d.comparison.designs[i].cost.cost_to_train_usd, cmp->designs[i].cost.cost_to_train_usd);
        const QString page3 = ui::report::comparison_html(d), page4 = ui::report::cost_html(d);
        QVERIFY2(page3.contains(money) && page4.contains(money), qPrintable(money + "\n" + page3 + "\n" + page4));
        const QString energy = ui::format_energy(given.energy_to_train_kwh);
        QVERIFY2(page4.contains(energy) && win.w.analysis()->costSummaryHtml().contains(energy), qPrintable(energy + "\n" + page4));
        // The Pareto points price each design as the comparison does.
        for (const ParetoPoint& p : d.pareto)
            for (std::size_t i = 0; i < 4; ++i)
                if (p.design == cmp->designs[i].name) QCOMPARE(p.cost_usd, cmp->designs[i].cost.cost_to_train_usd);
    }

    // A design name the page made follows an edit of its size; one the user typed stays (issue 40:
    // "DGX H100 x8, best strategy (2)" kept its name at 16 nodes).
    void autoDesignNamesFollowTheirSize() {
        Window win;
        Scenario none = win.scenario();
        none.designs.clear();
        win.w.document()->setScenario(none, QStringLiteral("no designs"));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("dgx-h100"), 8));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("dgx-h100"), 8));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("dgx-h100"), 16));
        const auto name = [&](int i) { return QString::fromStdString(win.scenario().designs.at(static_cast<std::size_t>(i)).name); };
        QCOMPARE(name(1), QStringLiteral("DGX H100 x8, best strategy (2)"));
        QTableWidget* t = win.w.compare()->table();
        int nodes_col = -1;
        for (int col = 0; col < t->columnCount(); ++col)
            if (t->horizontalHeaderItem(col)->text() == QStringLiteral("Nodes")) nodes_col = col;
        QVERIFY(nodes_col >= 0);
        t->item(1, nodes_col)->setText(QStringLiteral("32"));
        QCOMPARE(win.scenario().designs[1].nodes, 32);
        QCOMPARE(name(1), QStringLiteral("DGX H100 x32, best strategy"));
        t->item(0, nodes_col)->setText(QStringLiteral("16"));  // design 2 has that name: numbered
        QCOMPARE(name(0), QStringLiteral("DGX H100 x16, best strategy (2)"));
        win.w.document()->undoStack()->undo();  // size and name in one step
        QCOMPARE(name(0), QStringLiteral("DGX H100 x8, best strategy"));
        QCOMPARE(win.scenario().designs[0].nodes, 8);
        Scenario named = win.scenario();
        named.designs[2].name = "Our 2027 cluster";
        win.w.document()->setScenario(named, QStringLiteral("rename"));
        t->item(2, nodes_col)->setText(QStringLiteral("64"));
        QCOMPARE(name(2), QStringLiteral("Our 2027 cluster"));
        t->item(2, nodes_col)->setText(QStringLiteral("0"));  // refused: nothing changes
        QCOMPARE(win.scenario().designs[2].nodes, 64);
    }

    // Every chart of every page exports: PNG at the chosen size and DPI, SVG with its title as text.
    void everyChartExports() {
        Window win;
        int current = -1;
        const std::vector<app::NamedChart> charts = win.w.charts(&current);
        QCOMPARE(charts.size(), std::size_t{8});
        QCOMPARE(current, 0);
        QTemporaryDir dir;
        app::ExportDialog dialog(charts, 0);
        dialog.setSize(640, 400);
        dialog.setDpi(144);
        for (std::size_t i = 0; i < charts.size(); ++i) {
            dialog.setChart(static_cast<int>(i));
            dialog.setSize(640, 400);
            const QString png = dir.filePath(QStringLiteral("%1.png").arg(charts[i].file_stem));
            QCOMPARE(dialog.exportTo(png), QString());
            const QImage image(png);
            QCOMPARE(image.size(), QSize(960, 600));  // 640 x 400 at 144 / 96
            QVERIFY(std::abs(image.dotsPerMeterX() - qRound(144 / 0.0254)) <= 1);
            const QString svg = dir.filePath(QStringLiteral("%1.svg").arg(charts[i].file_stem));
            QCOMPARE(dialog.exportTo(svg), QString());
            QFile f(svg);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            QVERIFY2(text.contains(charts[i].chart->exportTitle().toHtmlEscaped()) || text.contains(charts[i].chart->exportTitle()),
                     qPrintable(charts[i].name + ": " + charts[i].chart->exportTitle()));
        }
        win.w.pages()->setCurrentWidget(win.w.analysis());
        (void)win.w.charts(&current);
        QCOMPARE(current, 5);  // the tornado
        win.w.pages()->setCurrentWidget(win.w.fsdp());
        (void)win.w.charts(&current);
        QCOMPARE(current, 7);
        QCOMPARE(charts[7].chart, win.w.fsdp()->chart());
    }

    // The FSDP Balance page on the default scenario, then on an MoE configuration set through the
    // document (as a form edit would): the core's numbers every time, and the chart exports.
    void hiddenPagesComputeWhenShown() {
        // An edit starts only the visible page's background work; a hidden page computes once,
        // when it is shown, for the newest scenario (WhileShown).
        Window win;
        app::MainWindow& w = win.w;
        w.pages()->setCurrentWidget(w.explorer());
        QCoreApplication::processEvents();
        QVERIFY(!w.compare()->isVisible() && !w.analysis()->isVisible() && !w.fsdp()->isVisible());
        const double before = w.compare()->comparison()->designs.at(0).result.iteration_s;
        QSignalSpy compared(w.compare(), &app::ComparePage::compared);
        QSignalSpy analysed(w.analysis(), &app::AnalysisPage::analysed);
        QSignalSpy computed(w.fsdp(), &app::FsdpPage::computed);
        for (const long long factor : {2, 4}) {  // two edits while the pages are hidden
            Config c = w.document()->config();
            c.training.global_batch *= factor;
            w.document()->setConfig(c, QStringLiteral("global batch"));
        }
        QTest::qWait(300);
        QCOMPARE(compared.count(), 0);
        QCOMPARE(analysed.count(), 0);
        QCOMPARE(computed.count(), 0);
        QVERIFY(!w.compare()->busy());
        // Shown: one comparison, of the newest scenario (8x the batch: slower per iteration).
        w.pages()->setCurrentWidget(w.compare());
        QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 60000);
        QCOMPARE(w.compare()->comparison()->designs.size(), win.scenario().designs.size());
        QCOMPARE(w.compare()->comparison()->designs.at(0).config.training.global_batch, w.document()->config().training.global_batch);
        QVERIFY(w.compare()->comparison()->designs.at(0).result.iteration_s > before);
        w.pages()->setCurrentWidget(w.analysis());
        QTRY_COMPARE_WITH_TIMEOUT(analysed.count(), 1, 60000);
        QCOMPARE(w.analysis()->analysis()->scenario.config.training.global_batch, w.document()->config().training.global_batch);
        // waitForResults() runs what a hidden page has pending.
        QCOMPARE(computed.count(), 0);
        w.fsdp()->waitForResults();
        QCOMPARE(computed.count(), 1);
        QCOMPARE(w.fsdp()->balance()->config.training.global_batch, w.document()->config().training.global_batch);
    }

    void fsdpPageShowsTheCoresBalance() {
        Window win;
        app::FsdpPage* page = win.w.fsdp();
        QCOMPARE(win.w.pages()->indexOf(page), 3);
        check_fsdp_page(page, win.scenario().config);
        if (QTest::currentTestFailed()) return;
        QVERIFY(!page->summaryText().isEmpty());

        QSignalSpy computed(page, &app::FsdpPage::computed);
        win.w.document()->setConfig(test::moe_config(), QStringLiteral("MoE"));
        win.settle();
        QVERIFY(computed.count() >= 1);
        QCOMPARE(page->balance()->config.model.experts, 8);
        check_fsdp_page(page, test::moe_config());
        if (QTest::currentTestFailed()) return;

        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("fsdp.png"));
        app::ExportDialog dialog(win.w.charts(), 7);
        dialog.setSize(800, 450);
        dialog.setDpi(96);
        QCOMPARE(dialog.exportTo(png), QString());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(800, 450));
        int coloured = 0;  // the lines' pixels (vermillion and blue, antialiased)
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor p = image.pixelColor(x, y);
                coloured += (p.red() > 180 && p.green() < 120 && p.blue() < 60) || (p.blue() > 150 && p.red() < 60) ? 1 : 0;
            }
        QVERIFY2(coloured > 300, qPrintable(QString::number(coloured)));
    }

    // File > Export > Report: the same report as comet-cli report, written from the window.
    void oneClickReportWritesAPdf() {
        Window win;
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("r.pdf"));
        QString result = QStringLiteral("pending");
        QVERIFY(win.w.exportReport(pdf, [&](const QString& error) { result = error; }));
        QVERIFY(!win.w.exportReport(pdf));  // one at a time
        QTRY_VERIFY_WITH_TIMEOUT(result != QStringLiteral("pending"), 60000);
        QCOMPARE(result, QString());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        const QString out = QString::fromUtf8(test::run_tool(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}));
        QVERIFY(out.contains(QString::fromStdString(win.scenario().name)));
        for (const Design& d : win.scenario().designs) QVERIFY2(out.contains(QString::fromStdString(d.name)), d.name.c_str());
        // A report into a missing directory says so and writes nothing.
        result = QStringLiteral("pending");
        QVERIFY(win.w.exportReport(dir.filePath(QStringLiteral("no/such/dir/r.pdf")), [&](const QString& error) { result = error; }));
        QTRY_VERIFY_WITH_TIMEOUT(result != QStringLiteral("pending"), 60000);
        QVERIFY2(result.contains(QStringLiteral("no/such/dir")), qPrintable(result));
    }

    // Heatmap axes are saved by knob id, so that new knobs do not shift them; indices that older
    // versions saved are read in the knob order of those versions.
    void settingsKeepTheAxesAcrossKnobChanges() {
        QSettings raw;
        raw.setValue(QStringLiteral("explorer/x"), 16);  // hbm_gbps in the old order (zero_shard now)
        raw.setValue(QStringLiteral("explorer/y"), 22);  // scale_out_gbps in the old order
        raw.sync();
        app::Settings settings;
        QCOMPARE(settings.explorerView().x, Knob::hbm_gbps);
        QCOMPARE(settings.explorerView().y, Knob::scale_out_gbps);
        app::ExplorerPage::View v;
        v.x = Knob::cp;
        v.y = Knob::ep_overlap;
        settings.setExplorerView(v);
        QCOMPARE(QSettings().value(QStringLiteral("explorer/x")).toString(), QStringLiteral("cp"));
        QCOMPARE(settings.explorerView().x, Knob::cp);
        QCOMPARE(settings.explorerView().y, Knob::ep_overlap);
        raw.setValue(QStringLiteral("explorer/x"), QStringLiteral("no_such_knob"));
        raw.setValue(QStringLiteral("explorer/y"), 99);
        raw.sync();
        QCOMPARE(settings.explorerView().x, app::ExplorerPage::View{}.x);
        QCOMPARE(settings.explorerView().y, app::ExplorerPage::View{}.y);
        raw.remove(QStringLiteral("explorer"));
    }

    void presentationModeStepsThroughDesignsAndPins() {
        Window win;
        QWidget* forms = qobject_cast<QSplitter*>(win.w.centralWidget())->widget(0);
        const qreal normal = win.w.font().pointSizeF();
        win.w.setPresentationMode(true);
        QVERIFY(win.w.presentationMode());
        QVERIFY(forms->isHidden());
        QVERIFY(win.w.menuBar()->isHidden());
        QVERIFY(win.w.font().pointSizeF() > 1.3 * normal);
        // Compare page: Right steps to the next design, wrapping.
        win.w.pages()->setCurrentWidget(win.w.compare());
        // Every result column fits across the table at the presentation font (no clipped cost
        // or time to train): the inputs the names repeat (node, price) make room.
        QTableWidget* table = win.w.compare()->table();
        // A 1920 x 1080 projector (the offscreen screen is smaller than that: size it as --screenshot does).
        win.w.setWindowState(Qt::WindowNoState);
        win.w.resize(1920, 1080);
        QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() == 4 && table->item(0, app::ComparePage::col_train) != nullptr, 20000);
        QCoreApplication::processEvents();
        QVERIFY(table->isColumnHidden(app::ComparePage::col_node));
        QVERIFY(table->isColumnHidden(app::ComparePage::col_price));
        table->resizeColumnsToContents();
        QVERIFY2(
            table->columnViewportPosition(app::ComparePage::col_band) + table->columnWidth(app::ComparePage::col_band) <=
                table->viewport()->width(),
            qPrintable(QStringLiteral("the likely error (after time to train) ends at %1 of %2 px")
                           .arg(table->columnViewportPosition(app::ComparePage::col_band) + table->columnWidth(app::ComparePage::col_band))
                           .arg(table->viewport()->width())));
        QTest::keyClick(&win.w, Qt::Key_Right);
        QCOMPARE(win.w.compare()->table()->currentRow(), 0);
        QTest::keyClick(&win.w, Qt::Key_Right);
        QCOMPARE(win.w.compare()->table()->currentRow(), 1);
        // Stable order while stepping: the second bar is still the second design, now marked.
        QVERIFY(win.w.compare()->shownBars()[1].label.contains(QStringLiteral("A100 x384, best strategy")));
        QVERIFY(win.w.compare()->shownBars()[1].label.startsWith(QStringLiteral("\u25B6 ")));
        QVERIFY(!win.w.compare()->shownBars()[0].label.startsWith(QStringLiteral("\u25B6 ")));
        QTest::keyClick(&win.w, Qt::Key_Left);
        QTest::keyClick(&win.w, Qt::Key_Left);
        QCOMPARE(win.w.compare()->table()->currentRow(), 3);
        // Explore page with two pinned cells: the selection cycles through them.
        win.w.pages()->setCurrentWidget(win.w.explorer());
        QTRY_VERIFY_WITH_TIMEOUT(win.w.explorer()->lastEvaluation().has_value(), 20000);
        ui::HeatmapWidget* h = win.w.explorer()->heatmap();
        Q_EMIT h->cellPinned(ui::CellIndex{1, 1});
        Q_EMIT h->cellPinned(ui::CellIndex{3, 2});
        QCOMPARE(win.w.explorer()->stepPinned(1), 0);
        QCOMPARE(win.w.explorer()->selectedCell()->ix, 1);
        QTest::keyClick(&win.w, Qt::Key_PageDown);
        QCOMPARE(win.w.explorer()->selectedCell()->ix, 3);
        // Alt+1..4 switch pages with the menu bar hidden (Help lists them; they did nothing there).
        for (int i : {1, 2, 3, 0}) {
            QTest::keyClick(&win.w, static_cast<Qt::Key>(Qt::Key_1 + i), Qt::AltModifier);
            QCOMPARE(win.w.pages()->currentIndex(), i);
        }
        QTest::keyClick(&win.w, Qt::Key_Escape);
        QVERIFY(!win.w.presentationMode());
        for (int i : {2, 0}) {
            QTest::keyClick(&win.w, static_cast<Qt::Key>(Qt::Key_1 + i), Qt::AltModifier);
            QCOMPARE(win.w.pages()->currentIndex(), i);
        }
        QVERIFY(!table->isColumnHidden(app::ComparePage::col_node));
        QVERIFY(!table->isColumnHidden(app::ComparePage::col_price));
        QVERIFY(!forms->isHidden());
        QVERIFY(!win.w.menuBar()->isHidden());
        QCOMPARE(win.w.font().pointSizeF(), normal);
    }
};

QTEST_MAIN(TestPages)
#include "test_pages.moc"
