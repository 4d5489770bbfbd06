#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QShortcut>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

#include "comet/config.hpp"
#include "comet/interop.hpp"
#include "comet/presets.hpp"
#include "analysis_page.hpp"
#include "best_strategy_dialog.hpp"
#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "charts/chart_views.hpp"
#include "export/chart_export.hpp"
#include "common/autosave.hpp"
#include "common/latest_job.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"
#include "compare_page.hpp"
#include "explorer_page.hpp"
#include "fsdp_page.hpp"
#include "help_menu.hpp"
#include "import_summary_dialog.hpp"
#include "report/report.hpp"
#include "forms/parameter_panel.hpp"
#include "settings.hpp"

namespace comet::app {
namespace {
// A tab's text without its mnemonic marks: "Cost && &Sensitivity" -> "Cost && Sensitivity" (a
// menu shows "Cost & Sensitivity"); a literal "&&" stays.
QString without_mnemonics(QString text) {
    static const QRegularExpression mnemonic(QStringLiteral("(?<!&)&(?!&)"));
    return text.remove(mnemonic);
}

constexpr double presentation_zoom = 1.4;    // widget fonts in presentation mode, at least:
constexpr double presentation_text_px = 28;  // readable from 3 m on a 1920x1080 projector
// The sizes above are for a 1080-pixel-high screen; on another the layout scales with the
// height, as a slide does (a 1280x720 projector shows 18.7 px text on 2/3 of the pixels).
constexpr double presentation_reference_height = 1080;
double presentation_scale_for(int height_px) { return std::clamp(height_px / presentation_reference_height, 0.5, 2.0); }

const QString file_filter = QObject::tr("COMET scenarios (*.comet.json *.json);;All files (*)");

QString default_scenario_path() { return QString::fromStdString((presets_dir() / "scenarios" / "default.comet.json").string()); }

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), doc_(new ui::ScenarioDocument(this)) {
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    panel_ = new ui::ParameterPanel(doc_, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(panel_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(panel_->minimumSizeHint().width() + 24);
    explorer_ = new ExplorerPage(doc_, this);
    compare_ = new ComparePage(doc_, this);
    analysis_ = new AnalysisPage(doc_, this);
    fsdp_ = new FsdpPage(doc_, this);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    tabs_->addTab(explorer_, tr("E&xplore"));
    tabs_->addTab(compare_, tr("&Compare Designs"));
    tabs_->addTab(analysis_, tr("Cost && &Sensitivity"));
    tabs_->addTab(fsdp_, tr("&FSDP Balance"));
    tabs_->setTabToolTip(0, tr("Heatmap of any two knobs, breakdown and memory of the edited configuration and pinned cells"));
    tabs_->setTabToolTip(1, tr("Up to four designs side by side: speedup over a baseline, memory, best strategy, cost"));
    tabs_->setTabToolTip(2, tr("Cost and energy, which resource matters most, time-to-train vs cost"));
    tabs_->setTabToolTip(3, tr("Whether FSDP (ZeRO-3) traffic can hide behind compute: tokens per GPU needed against what HBM allows"));
    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->addWidget(scroll);
    splitter_->addWidget(tabs_);
    splitter_->setStretchFactor(1, 1);
    splitter_->setChildrenCollapsible(false);
    setCentralWidget(splitter_);
    buildMenus();
    buildToolBar();
    // The page on top is part of the view saved with the document.
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        const std::span<const std::string_view> pages = view_page_ids();
        if (index < 0 || index >= static_cast<int>(pages.size())) return;
        ExplorerView v = doc_->view().value_or(ExplorerView{});
        v.page = std::string(pages[static_cast<std::size_t>(index)]);
        doc_->setView(v);
    });
    connect(doc_, &ui::ScenarioDocument::viewLoaded, this, [this] {
        const std::span<const std::string_view> pages = view_page_ids();
        const auto it = std::find(pages.begin(), pages.end(), doc_->view()->page);
        if (it != pages.end()) tabs_->setCurrentIndex(static_cast<int>(it - pages.begin()));
    });
    statusBar()->showMessage(tr("Evaluating…"));

    const auto show_status = [this](const QString& text) { statusBar()->showMessage(text, 8000); };
    connect(explorer_, &ExplorerPage::statusMessage, this, [this](const QString& text) { statusBar()->showMessage(text); });
    connect(compare_, &ComparePage::statusMessage, this, show_status);
    connect(panel_, &ui::ParameterPanel::presetApplied, this, [this](const QString& text) { statusBar()->showMessage(text, 15000); });
    connect(analysis_, &AnalysisPage::statusMessage, this, show_status);
    // Presentation keys: active only in presentation mode, where no form takes the arrows.
    for (const auto& [key, delta] :
         {std::pair{Qt::Key_Right, 1}, {Qt::Key_Left, -1}, {Qt::Key_PageDown, 1}, {Qt::Key_PageUp, -1}, {Qt::Key_Space, 1}}) {
        auto* shortcut = new QShortcut(QKeySequence(key), this);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, this, [this, delta = delta] { presentationStep(delta); });
        presentation_keys_.push_back(shortcut);
    }
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(leave, &QShortcut::activated, this, [this] {
        if (presenting_) setPresentationMode(false);
    });
    connect(doc_, &ui::ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc_, &ui::ScenarioDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc_, &ui::ScenarioDocument::changed, this, &MainWindow::updateTitle);
    autosaver_ = new ui::Autosaver(doc_, 2000, this);
    connect(autosaver_, &ui::Autosaver::failed, this, show_status);
    restoreSettings();
}

MainWindow::~MainWindow() {
    // The document is a child and outlives this destructor's body: its undo stack still emits
    // while it is torn down, which must not reach this half-destroyed window or its pages.
    doc_->blockSignals(true);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* new_action = file->addAction(tr("&New from Default"), this, &MainWindow::newFromDefault);
    new_action->setShortcut(QKeySequence::New);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recent_menu_ = file->addMenu(tr("Open &Recent"));
    QMenu* import = file->addMenu(tr("&Import"));
    import->addAction(tr("Hugging Face &config.json (model)…"), this, &MainWindow::importHuggingFace);
    import->addAction(tr("&Calculon application, system and execution…"), this, &MainWindow::importCalculon);
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addAction(tr("Name and &Description…"), this, [this] { (void)nameDialog(); });
    QMenu* export_menu = file->addMenu(tr("&Export"));
    QAction* export_chart = export_menu->addAction(tr("&Chart (PNG, SVG, PDF, clipboard)…"), this, &MainWindow::exportChartDialog);
    export_chart->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* copy_chart = export_menu->addAction(tr("Cop&y Chart to Clipboard"), this, [this] {
        int current = 0;
        const std::vector<NamedChart> all = charts(&current);
        ui::copy_chart_to_clipboard(*all.at(static_cast<std::size_t>(current)).chart, {}, assumptionsText());
        statusBar()->showMessage(tr("Copied %1 to the clipboard").arg(all.at(static_cast<std::size_t>(current)).name), 5000);
    });
    copy_chart->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    export_menu->addSeparator();
    QAction* slide_page = export_menu->addAction(tr("&Slide (16:9): This Page…"), this, [this] { exportSlideDialog(SlideKind::page); });
    slide_page->setToolTip(tr("The current page as it is on screen, with the assumptions under it, as PNG, SVG or PDF"));
    export_menu->addAction(tr("Slide (16:9): Comparison &Table…"), this, [this] { exportSlideDialog(SlideKind::comparison_table); });
    QAction* slide_answer =
        export_menu->addAction(tr("Slide (16:9): One-Page &Answer…"), this, [this] { exportSlideDialog(SlideKind::answer); });
    slide_answer->setToolTip(tr("The question, the fastest design with how far to trust it, the chart of the designs and the assumptions"));
    export_menu->addSeparator();
    export_menu->addAction(tr("&Grid Data (CSV, JSON)…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Grid Data"), QString(), tr("CSV (*.csv);;JSON (*.json)"));
        if (path.isEmpty()) return;
        const QString error = explorer_->exportGrid(path);
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
        else
            QMessageBox::warning(this, tr("Cannot export"), error);
    });
    export_menu->addAction(tr("C&omparison Data (CSV, JSON)…"), this, &MainWindow::exportComparisonData);
    export_menu->addSeparator();
    QAction* report = export_menu->addAction(tr("&Report (PDF)…"), this, &MainWindow::exportReportDialog);
    report->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    report->setToolTip(tr("Scenario summary and assumptions, heatmap, breakdown, memory, comparison, sensitivity and cost in one PDF"));
    file->addSeparator();
    file->addAction(tr("Save &Node as Preset…"), this, [this] { savePreset(true); });
    file->addAction(tr("Save &Model as Preset…"), this, [this] { savePreset(false); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    edit->addSeparator();
    best_action_ = edit->addAction(tr("Find &Best Strategy"), QKeySequence(Qt::CTRL | Qt::Key_B), this, &MainWindow::findBestStrategy);
    best_action_->setObjectName(QStringLiteral("bestStrategyAction"));
    best_action_->setToolTip(
        tr("Search every strategy for the current node, cluster, model and training, apply the fastest "
           "(undoable) and list the ten best (Ctrl+B)"));
    best_action_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Ctrl+R, not QKeySequence::Refresh: that is F5 on Linux, which is presentation mode's key.
    QAction* reevaluate = view->addAction(tr("Re-&evaluate"), QKeySequence(Qt::CTRL | Qt::Key_R), explorer_, &ExplorerPage::schedule);
    reevaluate->setObjectName(QStringLiteral("reevaluateAction"));
    QAction* ranges = view->addAction(tr("Heatmap &Axis Ranges..."), this, [this] {
        tabs_->setCurrentWidget(explorer_);
        explorer_->editAxisRanges();
    });
    ranges->setObjectName(QStringLiteral("axisRangesAction"));
    ranges->setToolTip(tr("Set the range of each heatmap axis, or keep it around the current value"));
    view->addSeparator();
    for (int i = 0; i < tabs_->count(); ++i) {
        QAction* page = view->addAction(without_mnemonics(tabs_->tabText(i)), this, [this, i] { tabs_->setCurrentIndex(i); });
        page->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
        addAction(page);  // Alt+1..4 work while presentation mode hides the menu bar
    }
    view->addSeparator();
    presentation_action_ = view->addAction(tr("&Presentation Mode"), this, &MainWindow::setPresentationMode);
    presentation_action_->setCheckable(true);
    presentation_action_->setObjectName(QStringLiteral("presentationAction"));
    presentation_action_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::Key_F11)});
    presentation_action_->setToolTip(
        tr("Full screen, larger fonts, forms hidden; Right/Left step through pinned cells or designs; Esc leaves"));
    addAction(presentation_action_);  // its shortcut works while the menu bar is hidden

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    fill_help_menu(help, this);
    help->addAction(tr("&About COMET Explorer"), this, &MainWindow::showAbout);
    updateRecentMenu();
}

void MainWindow::buildToolBar() {
    toolbar_ = addToolBar(tr("Main"));
    toolbar_->setObjectName(QStringLiteral("mainToolBar"));
    toolbar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar_->setMovable(false);
    toolbar_->addAction(best_action_);
}

void MainWindow::findBestStrategy() {
    if (!best_) {
        best_ = new BestStrategyDialog(doc_, this);
        connect(best_, &BestStrategyDialog::applied, this, [this](const QString& what) { statusBar()->showMessage(what, 10000); });
    }
    best_->start(true);
    best_->show();
    best_->raise();
}

std::vector<NamedChart> MainWindow::charts(int* current) const {
    std::vector<NamedChart> all = {
        {tr("Heatmap (Explore)"), QStringLiteral("heatmap"), explorer_->heatmapChart()},
        {tr("Iteration time breakdown (Explore)"), QStringLiteral("breakdown"), explorer_->breakdownChart()},
        {tr("Memory per accelerator (Explore)"), QStringLiteral("memory"), explorer_->memoryChart()},
        {tr("Breakdown per design (Compare)"), QStringLiteral("compare-breakdown"), compare_->breakdownChart()},
        {tr("Memory per design (Compare)"), QStringLiteral("compare-memory"), compare_->memoryChart()},
        {tr("Sensitivity tornado"), QStringLiteral("tornado"), analysis_->tornadoChart()},
        {tr("Time to train vs cost (Pareto)"), QStringLiteral("pareto"), analysis_->paretoChart()},
        {tr("FSDP balance"), QStringLiteral("fsdp-balance"), fsdp_->chart()},
    };
    if (current) {
        const QWidget* page = tabs_->currentWidget();
        *current = page == compare_ ? 3 : page == analysis_ ? 5 : page == fsdp_ ? 7 : 0;
    }
    return all;
}

void MainWindow::exportChartDialog() {
    int current = 0;
    std::vector<NamedChart> all = charts(&current);
    auto* dialog = new ExportDialog(std::move(all), current, this);
    dialog->setFooter(assumptionsText());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::exported, this,
            [this](const QString& path) { statusBar()->showMessage(tr("Exported %1").arg(path), 5000); });
    dialog->open();
}

QString MainWindow::assumptionsText() const { return QString::fromStdString(assumptions_line(doc_->scenario())); }

std::optional<ui::Slide> MainWindow::slide(SlideKind kind, QString* why) const {
    const auto refuse = [why](const QString& reason) -> std::optional<ui::Slide> {
        if (why) *why = reason;
        return std::nullopt;
    };
    const Scenario& s = doc_->scenario();
    ui::Slide slide;
    slide.footer = assumptionsText();
    const QString scenario_name = QString::fromStdString(s.name.empty() ? content_name(s) : s.name);
    if (kind == SlideKind::page) {
        const QString page = without_mnemonics(tabs_->tabText(tabs_->currentIndex())).replace(QStringLiteral("&&"), QStringLiteral("&"));
        slide.title = tr("%1: %2").arg(scenario_name, page);
        slide.widget = tabs_->currentWidget();
        return slide;
    }
    const std::optional<Comparison>& c = compare_->comparison();
    const QTableWidget* table = compare_->table();
    if (s.designs.empty()) return refuse(tr("The scenario has no designs to compare: add some on the Compare page first."));
    if (!c || c->designs.size() != s.designs.size() || table->rowCount() != static_cast<int>(s.designs.size()))
        return refuse(tr("The designs have not been compared yet: open the Compare page and wait for its results, then export again."));
    // The fastest design that runs: every design trains the same model on the same batch.
    int fastest = -1;
    for (int i = 0; i < static_cast<int>(c->designs.size()); ++i) {
        const Result& r = c->designs[static_cast<std::size_t>(i)].result;
        if (r.feasible && (fastest < 0 || r.iteration_s < c->designs[static_cast<std::size_t>(fastest)].result.iteration_s)) fastest = i;
    }
    const auto text = [table](int row, int col) {
        const QTableWidgetItem* it = table->item(row, col);
        return it ? it->text() : QString();
    };
    if (kind == SlideKind::comparison_table) {
        ui::SlideTable t;
        t.headers << QStringLiteral("#");
        for (int col = 0; col < ComparePage::col_count; ++col) t.headers << table->horizontalHeaderItem(col)->text();
        for (int row = 0; row < table->rowCount(); ++row) {
            QStringList cells{QStringLiteral("#%1").arg(row + 1)};
            for (int col = 0; col < ComparePage::col_count; ++col) cells << text(row, col);
            t.rows.push_back(cells);
            if (table->columnSpan(row, ComparePage::col_time) > 1)
                t.spans.push_back({row, ComparePage::col_time + 1, table->columnSpan(row, ComparePage::col_time)});
        }
        t.highlighted_row = fastest;
        slide.title = tr("Designs compared: %1").arg(scenario_name);
        slide.lines << compare_->hintText();
        if (fastest >= 0) slide.lines << tr("Highlighted: the fastest design that runs.");
        slide.table = std::move(t);
        return slide;
    }
    // The one-page answer.
    const QString model = QString::fromStdString(short_name(s.model_info.name, "the model"));
    slide.title = tr("Which design trains %1 fastest?").arg(model);
    if (fastest < 0)
        return refuse(tr("No design of the comparison can run, so there is no answer to show: see the reasons on the Compare page."));
    const DesignOutcome& best = c->designs[static_cast<std::size_t>(fastest)];
    QString answer =
        tr("%1: %2 per iteration (likely error %3)")
            .arg(QString::fromStdString(best.name), text(fastest, ComparePage::col_time), text(fastest, ComparePage::col_band));
    const QString speedup = text(fastest, ComparePage::col_speedup);
    if (fastest != c->baseline && speedup.endsWith(QLatin1Char('x')))
        answer += tr(", %1 the baseline #%2").arg(speedup).arg(c->baseline + 1);
    answer += QLatin1Char('.');
    slide.lines << answer;
    if (best.cost.valid && best.cost.time_to_train_s > 0)
        slide.lines << tr("To train on %1: %2.")
                           .arg(QString::fromStdString(format_token_budget(s.cost.tokens_to_train)), text(fastest, ComparePage::col_train));
    if (best.best_strategy)
        slide.lines
            << tr("Its best strategy: %1.").arg(QString::fromStdString(format_strategy(best.config.strategy, best.config.workload)));
    int cannot = 0;
    for (const DesignOutcome& d : c->designs) cannot += d.result.feasible ? 0 : 1;
    if (cannot > 0)
        slide.lines << tr("%n design(s) of %1 cannot run (reasons in the comparison table).", nullptr, cannot).arg(c->designs.size());
    slide.chart = compare_->breakdownChart();
    return slide;
}

QString MainWindow::exportSlide(SlideKind kind, const QString& path) const {
    QString why;
    const std::optional<ui::Slide> s = slide(kind, &why);
    if (!s) return why;
    ui::ExportOptions o;
    o.size = ui::slide_size;
    o.dpi = 2 * ui::export_px_per_inch;  // 3840 x 2160 pixels: sharp on a 4K projector
    o.title = s->title;
    o.description = s->footer;
    return ui::export_chart(*s, path, o);
}

void MainWindow::exportSlideDialog(SlideKind kind) {
    QString why;
    if (!slide(kind, &why)) {
        QMessageBox::information(this, tr("No slide to export"), why);
        return;
    }
    QString selected;
    const QString stem = kind == SlideKind::page               ? QStringLiteral("slide-page")
                         : kind == SlideKind::comparison_table ? QStringLiteral("slide-comparison")
                                                               : QStringLiteral("slide-answer");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Slide"), QDir::home().filePath(stem + QStringLiteral(".png")),
                                                      ui::chart_export_filters().join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    const QString target = ui::with_filter_extension(path, selected);
    const QString error = exportSlide(kind, target);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(target)), 5000);
    else
        QMessageBox::warning(this, tr("Cannot export"), error);
}

void MainWindow::exportComparisonData() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Comparison Data"), QString(), tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty()) return;
    const QString error = compare_->exportData(path);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
    else
        QMessageBox::warning(this, tr("Cannot export"), error);
}

bool MainWindow::exportReport(const QString& path, std::function<void(const QString&)> done) {
    if (!report_job_) report_job_ = std::make_unique<ui::LatestJob>();
    if (report_job_->busy()) return false;
    const ExplorerPage::View v = explorer_->view();
    ui::ReportOptions options;
    options.x = v.x;
    options.y = v.y;
    options.metric = v.metric;
    options.search_cells = v.search;
    options.steps = std::clamp(v.steps, ui::report_min_steps, 33);  // a page shows ~33 cells legibly
    options.fraction = analysis_->fraction();
    QString problem;
    options.pareto_nodes = parse_node_list(analysis_->paretoNodesText(), problem);
    statusBar()->showMessage(tr("Writing the report…"));
    ui::run_latest<ui::ReportData>(
        *report_job_,
        [s = doc_->scenario(), options](const std::atomic<bool>& cancel) { return ui::compute_report_data(s, options, &cancel); },
        [this, path, done = std::move(done)](const ui::ReportData& report) {
            const QString error = ui::write_report_pdf(report, path);  // paints widgets: GUI thread
            if (error.isEmpty())
                statusBar()->showMessage(tr("Wrote the report %1").arg(path), 8000);
            else
                statusBar()->showMessage(error, 8000);
            if (done) done(error);
        });
    return true;
}

void MainWindow::exportReportDialog() {
    QString name = QString::fromStdString(doc_->scenario().name).simplified();
    for (QChar& ch : name)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-')) ch = QLatin1Char('-');
    const QString suggested = QDir::home().filePath((name.isEmpty() ? QStringLiteral("comet-report") : name) + QStringLiteral(".pdf"));
    QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), suggested, tr("PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".pdf");
    const bool started = exportReport(path, [this](const QString& error) {
        if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot write the report"), error);
    });
    if (!started) statusBar()->showMessage(tr("A report is already being written."), 5000);
}

void MainWindow::setPresentationMode(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    presentation_action_->setChecked(on);
    splitter_->widget(0)->setVisible(!on);  // the forms
    menuBar()->setVisible(!on);
    toolbar_->setVisible(!on);
    statusBar()->setVisible(!on);
    for (QShortcut* s : presentation_keys_) s->setEnabled(on);
    // The font first: the pages size their panels for the text they will show.
    if (on) {
        was_maximized_ = isMaximized();
        normal_font_ = font();
        // The screen's height: the window becomes full screen below.
        const QScreen* where = screen();
        presentation_scale_ = presentation_scale_for(where ? where->geometry().height() : height());
        applyPresentationScale();
    } else {
        ui::set_chart_zoom(1.0);
        setFont(normal_font_);
    }
    explorer_->setPresentation(on);
    compare_->setPresentation(on);
    analysis_->setPresentation(on);
    if (on)
        showFullScreen();
    else if (was_maximized_)
        showMaximized();
    else
        showNormal();
}

void MainWindow::applyPresentationScale() {
    ui::set_chart_zoom(ui::presentation_chart_zoom * presentation_scale_);
    QFont big = normal_font_;
    const double dpi = logicalDpiY() > 0 ? logicalDpiY() : 96.0;
    big.setPointSizeF(std::max(normal_font_.pointSizeF() * presentation_zoom * std::min(1.0, presentation_scale_),
                               presentation_text_px * presentation_scale_ * 72.0 / dpi));
    setFont(big);
}

void MainWindow::resizeEvent(QResizeEvent* e) {
    QMainWindow::resizeEvent(e);
    if (!presenting_) return;
    // Full screen on a screen of another height (or --screenshot's --size): the slide follows.
    const double scale = presentation_scale_for(height());
    if (std::abs(scale - presentation_scale_) >= 0.02) {
        presentation_scale_ = scale;
        applyPresentationScale();
    }
    // After the pages have their new size.
    QTimer::singleShot(0, explorer_, &ExplorerPage::presentationResized);
}

void MainWindow::presentationStep(int delta) {
    if (!presenting_) return;
    if (tabs_->currentWidget() == compare_) {
        const int i = compare_->step(delta);
        if (i < 0) statusBar()->showMessage(tr("No designs to step through"), 3000);
        return;
    }
    if (tabs_->currentWidget() == explorer_ && explorer_->stepPinned(delta) < 0) {
        // Nothing pinned: page through the tabs instead.
        tabs_->setCurrentIndex((tabs_->currentIndex() + delta + tabs_->count()) % tabs_->count());
        return;
    }
    if (tabs_->currentWidget() == analysis_ || tabs_->currentWidget() == fsdp_)
        tabs_->setCurrentIndex((tabs_->currentIndex() + delta + tabs_->count()) % tabs_->count());
}

void MainWindow::restoreSettings() {
    Settings s;
    if (!restoreGeometry(s.windowGeometry())) resize(1440, 900);
    restoreState(s.windowState(), Settings::layout_version);
    toolbar_->setVisible(true);  // Find Best Strategy stays one click away whatever an old state says
    if (!splitter_->restoreState(s.splitterState())) splitter_->setSizes({380, 1060});
    explorer_->setView(s.explorerView());
}

void MainWindow::start(const QString& scenario_path, bool offer_restore) {
    Settings s;
    QStringList candidates;
    if (!scenario_path.isEmpty())
        candidates << scenario_path;
    else if (!s.lastScenario().isEmpty())
        candidates << s.lastScenario();
    candidates << default_scenario_path();
    bool loaded = false;
    for (const QString& path : candidates) {
        const QString error = doc_->open(path);
        if (error.isEmpty()) {
            if (path == default_scenario_path()) doc_->reset(doc_->scenario());  // a template, not a file to overwrite
            loaded = true;
            break;
        }
        if (!scenario_path.isEmpty() && path == scenario_path) QMessageBox::warning(this, tr("Cannot open scenario"), error);
    }
    if (!loaded) statusBar()->showMessage(tr("No scenario could be loaded from %1").arg(default_scenario_path()));
    if (offer_restore) offerRestore();
}

void MainWindow::offerRestore() {
    const std::vector<ui::AutosaveFile> orphans = ui::orphaned_autosaves();
    if (orphans.empty()) return;
    const ui::AutosaveFile& found = orphans.front();  // the newest; older ones stay for later starts
    const Loaded<Scenario> restored = ui::load_autosave(found);
    if (!restored.ok()) {  // unreadable (a crash mid-write cannot cause this: writes are atomic)
        statusBar()->showMessage(
            tr("An autosaved scenario could not be read and was removed: %1").arg(QString::fromStdString(restored.error_text())), 10000);
        ui::remove_autosave(found);
        return;
    }
    const QString name = QString::fromStdString(restored.value->name).toHtmlEscaped();
    const QString from = found.original_path.isEmpty() ? tr("never saved") : QFileInfo(found.original_path).fileName().toHtmlEscaped();
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Restore unsaved changes?"),
        tr("COMET Explorer was not closed normally. The scenario <b>%1</b> (%2) has changes that "
           "were not saved, autosaved %3.<p>Restore them?")
            .arg(name.isEmpty() ? tr("Untitled") : name, from, QLocale().toString(found.saved.toLocalTime(), QLocale::ShortFormat)),
        QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("restoreBox"));
    QPushButton* restore = box->addButton(tr("&Restore"), QMessageBox::AcceptRole);
    box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    box->setDefaultButton(restore);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, restore, found, scenario = *restored.value] {
        if (box->clickedButton() == restore) {
            // The original file (when it still loads) is the saved state, the autosave an
            // undoable edit on top of it: the window shows unsaved changes, as before the crash.
            Scenario base = doc_->scenario();
            QString path;
            if (!found.original_path.isEmpty()) {
                const Loaded<Scenario> original = load_scenario_file(found.original_path.toStdString());
                if (original.ok()) {
                    base = *original.value;
                    path = found.original_path;
                }
            }
            doc_->reset(base, path);
            doc_->setScenario(scenario, tr("Restore unsaved changes"));
            if (scenario.view) doc_->loadView(*scenario.view);  // the heatmap, its pins and the page too
            statusBar()->showMessage(tr("Restored the unsaved changes of %1").arg(QString::fromStdString(scenario.name)), 8000);
        }
        ui::remove_autosave(found);
    });
    box->open();
}

bool MainWindow::openFile(const QString& path) {
    if (!confirmDiscard()) return false;
    const QString error = doc_->open(path);
    if (!error.isEmpty()) {
        // Not modal-blocking: the explorer keeps working while the message is up.
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open scenario"),
                                    tr("%1\n\nThe current scenario is unchanged.").arg(error), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("openErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        statusBar()->showMessage(tr("Could not open %1; the current scenario is unchanged.").arg(QFileInfo(path).fileName()));
        return false;
    }
    rememberFile(path);
    return true;
}

void MainWindow::rememberFile(const QString& path) {
    Settings s;
    s.addRecentFile(path);
    s.setLastScenario(QFileInfo(path).absoluteFilePath());
    updateRecentMenu();
}

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QFileInfo(doc_->filePath()).absolutePath(), file_filter);
    if (!path.isEmpty()) (void)openFile(path);
}

QDialog* MainWindow::nameDialog() {
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("nameDialog"));
    dialog->setWindowTitle(tr("Name and Description"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* form = new QFormLayout(dialog);
    auto* name = new QLineEdit(QString::fromStdString(doc_->scenario().name), dialog);
    name->setObjectName(QStringLiteral("scenarioName"));
    name->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 60);
    auto* description = new QPlainTextEdit(QString::fromStdString(doc_->scenario().description), dialog);
    description->setObjectName(QStringLiteral("scenarioDescription"));
    description->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // it wraps at the width
    auto* note =
        new QLabel(doc_->nameFollowsContent() ? tr("The name now follows the model, node and node count. A name you give here stays.")
                                              : tr("The name stays as given when the model, node or node count change."),
                   dialog);
    note->setWordWrap(true);
    form->addRow(tr("&Name:"), name);
    form->addRow(tr("&Description:"), description);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(name, &QLineEdit::textChanged, dialog,
            [ok = buttons->button(QDialogButtonBox::Ok), name] { ok->setEnabled(!name->text().trimmed().isEmpty()); });
    connect(dialog, &QDialog::accepted, this, [this, name, description] {
        const std::string n = name->text().simplified().toStdString();
        const std::string d = description->toPlainText().trimmed().toStdString();
        if (n != doc_->scenario().name || d != doc_->scenario().description || doc_->nameFollowsContent()) doc_->rename(n, d);
    });
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

void MainWindow::newFromDefault() {
    if (!confirmDiscard()) return;
    const Loaded<Scenario> s = load_scenario_file(default_scenario_path().toStdString());
    if (s.ok()) doc_->reset(*s.value);
}

bool MainWindow::save() {
    if (doc_->filePath().isEmpty()) return saveAs();
    const QString error = doc_->save();
    if (!error.isEmpty()) {
        QMessageBox::critical(this, tr("Cannot save"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(doc_->filePath()), 4000);
    return true;
}

bool MainWindow::saveAs() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario As"), doc_->filePath(), file_filter);
    if (path.isEmpty()) return false;
    if (!path.endsWith(QStringLiteral(".json"))) path += QStringLiteral(".comet.json");
    const QString error = doc_->save(path);
    if (!error.isEmpty()) {
        QMessageBox::critical(this, tr("Cannot save"), error);
        return false;
    }
    rememberFile(path);
    return true;
}

bool MainWindow::confirmDiscard() {
    if (!doc_->isModified()) return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them first?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle() {
    const Scenario& s = doc_->scenario();
    QString name = QString::fromStdString(s.name);
    if (name.isEmpty()) name = tr("Untitled scenario");
    const QString file = doc_->filePath().isEmpty() ? tr("not saved") : QFileInfo(doc_->filePath()).fileName();
    setWindowTitle(tr("%1 (%2)[*] — COMET Explorer").arg(name, file));
    setWindowModified(doc_->isModified());
}

void MainWindow::updateRecentMenu() {
    recent_menu_->clear();
    const QStringList files = Settings().recentFiles();
    for (const QString& f : files) recent_menu_->addAction(QFileInfo(f).fileName(), this, [this, f] { (void)openFile(f); })->setToolTip(f);
    recent_menu_->setEnabled(!files.isEmpty());
}

void MainWindow::savePreset(bool node) {
    const Scenario& s = doc_->scenario();
    const QString current = QString::fromStdString(node ? s.node_info.name : s.model_info.name);
    bool ok = false;
    const QString name = QInputDialog::getText(this, node ? tr("Save Node as Preset") : tr("Save Model as Preset"),
                                               tr("Preset name (saved in %1):").arg(QString::fromStdString(user_presets_dir().string())),
                                               QLineEdit::Normal, current.isEmpty() ? tr("My preset") : current + tr(" (edited)"), &ok);
    if (!ok || name.trimmed().isEmpty()) return;
    QString id = name.trimmed().toLower();
    for (QChar& ch : id)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-') && ch != QLatin1Char('.')) ch = QLatin1Char('-');
    Provenance info{name.trimmed().toStdString(), tr("Saved from COMET Explorer by the user").toStdString()};
    info.source = (node ? s.node_info.source : s.model_info.source).empty()
                      ? info.source
                      : info.source + "; based on: " + (node ? s.node_info.source : s.model_info.source);
    const std::string error = node ? save_user_node_preset(id.toStdString(), info, s.config.node)
                                   : save_user_model_preset(id.toStdString(), info, s.config.model);
    if (!error.empty()) {
        QMessageBox::critical(this, tr("Cannot save preset"), QString::fromStdString(error));
        return;
    }
    panel_->reloadPresets();
    statusBar()->showMessage(tr("Saved preset \"%1\"").arg(name.trimmed()), 5000);
}

void MainWindow::showImport(const QString& what, const std::vector<std::string>& mapped, const std::vector<std::string>& warnings) {
    // Never land on a strategy that cannot run without saying so: search for one at once.
    const Config& c = doc_->config();
    const Result r = evaluate(c);
    const bool search_now = !r.feasible;
    const QString verdict =
        r.feasible ? tr("The imported strategy %1 runs: %2 per iteration. Find Best Strategy searches for a faster one.")
                         .arg(QString::fromStdString(format_strategy(c.strategy, c.workload)), ui::format_seconds(r.iteration_s))
                   : tr("The imported strategy %1 cannot run (%2): the best strategy is being searched and applied "
                        "(undoable).")
                         .arg(QString::fromStdString(format_strategy(c.strategy, c.workload)), QString::fromStdString(explain(r)));
    auto* box = new ImportSummaryDialog(what, mapped, warnings, verdict, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &ImportSummaryDialog::findBestRequested, this, &MainWindow::findBestStrategy);
    box->open();
    if (search_now) findBestStrategy();
}

// An import starts a new untitled document (the menu asked about unsaved changes first): Ctrl+S
// then asks for a file name instead of overwriting the study the import was made over. The import
// itself is one undoable edit on top of what was open.
void MainWindow::startImported(const Scenario& imported, const QString& what) {
    if (!doc_->filePath().isEmpty()) doc_->reset(doc_->scenario(), {});
    doc_->setScenario(imported, what);
}

void MainWindow::importHuggingFace() {
    if (!confirmDiscard()) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Hugging Face config.json"), QString(),
                                                      tr("Model configuration (config.json *.json);;All files (*)"));
    if (!path.isEmpty()) importHuggingFaceFile(path);
}

bool MainWindow::importHuggingFaceFile(const QString& path) {
    const Loaded<ImportResult> r = import_hf_config(path.toStdString(), doc_->scenario());
    if (!r.ok()) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Cannot import"), QString::fromStdString(r.error_text()), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("importErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return false;
    }
    startImported(r.value->scenario, tr("Import model from %1").arg(QFileInfo(path).fileName()));
    showImport(tr("The model of %1").arg(QFileInfo(path).fileName()), r.value->mapped, r.value->warnings);
    return true;
}

void MainWindow::importCalculon() {
    if (!confirmDiscard()) return;
    const QString filter = tr("Calculon JSON (*.json);;All files (*)");
    const QString app = QFileDialog::getOpenFileName(this, tr("Calculon application (model) file"), QString(), filter);
    if (app.isEmpty()) return;
    const QString system = QFileDialog::getOpenFileName(this, tr("Calculon system file"), QFileInfo(app).absolutePath(), filter);
    if (system.isEmpty()) return;
    const QString exec = QFileDialog::getOpenFileName(this, tr("Calculon execution file"), QFileInfo(system).absolutePath(), filter);
    if (exec.isEmpty()) return;
    (void)importCalculonFiles(app, system, exec);
}

bool MainWindow::importCalculonFiles(const QString& app, const QString& system, const QString& exec) {
    const Loaded<ImportResult> r = import_calculon(app.toStdString(), system.toStdString(), exec.toStdString());
    if (!r.ok()) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Cannot import"), QString::fromStdString(r.error_text()), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("importErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return false;
    }
    startImported(r.value->scenario, tr("Import Calculon files"));
    showImport(tr("The Calculon files"), r.value->mapped, r.value->warnings);
    return true;
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About COMET Explorer"),
                       tr("<b>COMET Explorer %1</b><p>What-if explorer for large-model training clusters, after the COMET "
                          "methodology (Kadiyala et al., arXiv 2211.16648).</p><p>Presets: %2</p>")
                           .arg(QString::fromLatin1(config::version), QString::fromStdString(presets_dir().string())));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!confirmDiscard()) {
        e->ignore();
        return;
    }
    // Closed in presentation mode: remember the window as it was, not full screen.
    if (presenting_) setPresentationMode(false);
    Settings s;
    s.setWindowGeometry(saveGeometry());
    s.setWindowState(saveState(Settings::layout_version));
    s.setSplitterState(splitter_->saveState());
    s.setExplorerView(explorer_->view());
    if (!doc_->filePath().isEmpty()) s.setLastScenario(QFileInfo(doc_->filePath()).absoluteFilePath());
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && e->mimeData()->urls().size() == 1 && e->mimeData()->urls().front().isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QString path = e->mimeData()->urls().front().toLocalFile();
    if (openFile(path)) e->acceptProposedAction();
}

}  // namespace comet::app
