#include "autosave.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <algorithm>
#include <cerrno>

#include <signal.h>

#include "scenario_document.hpp"

namespace comet::ui {
namespace {

QString scenario_name(qint64 pid) { return QStringLiteral("autosave-%1.comet.json").arg(pid); }
QString sidecar_name(qint64 pid) { return QStringLiteral("autosave-%1.meta.json").arg(pid); }

// kill(pid, 0) asks whether the process exists without signalling it (EPERM: it exists but is
// someone else's). A recycled pid only hides an orphan, never deletes one.
bool running(qint64 pid) {
    if (pid <= 0) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

QString autosave_dir() {
    const QByteArray env = qgetenv("COMET_AUTOSAVE_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave"));
}

std::vector<AutosaveFile> orphaned_autosaves() {
    std::vector<AutosaveFile> out;
    const QDir dir(autosave_dir());
    for (const QFileInfo& meta : dir.entryInfoList({QStringLiteral("autosave-*.meta.json")}, QDir::Files)) {
        QFile f(meta.filePath());
        if (!f.open(QIODevice::ReadOnly) || f.size() > 65536) continue;
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        AutosaveFile a;
        a.pid = static_cast<qint64>(o.value(QStringLiteral("pid")).toDouble());
        a.original_path = o.value(QStringLiteral("file")).toString();
        a.saved = QDateTime::fromString(o.value(QStringLiteral("saved")).toString(), Qt::ISODate);
        a.path = dir.filePath(scenario_name(a.pid));
        if (a.pid <= 0 || a.pid == QCoreApplication::applicationPid() || running(a.pid) || !QFileInfo::exists(a.path)) continue;
        out.push_back(a);
    }
    std::sort(out.begin(), out.end(), [](const AutosaveFile& x, const AutosaveFile& y) { return x.saved > y.saved; });
    return out;
}

Loaded<Scenario> load_autosave(const AutosaveFile& f) { return load_scenario_file(f.path.toStdString()); }

void remove_autosave(const AutosaveFile& f) {
    QFile::remove(f.path);
    QFile::remove(QDir(QFileInfo(f.path).absolutePath()).filePath(sidecar_name(f.pid)));
}

Autosaver::Autosaver(ScenarioDocument* doc, int delay_ms, QObject* parent) : QObject(parent), doc_(doc) {
    timer_.setSingleShot(true);
    timer_.setInterval(delay_ms);
    connect(&timer_, &QTimer::timeout, this, &Autosaver::flush);
    connect(doc_, &ScenarioDocument::changed, this, &Autosaver::onChanged);
    connect(doc_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified) remove();  // saved, or undone back to the saved state
    });
}

Autosaver::~Autosaver() { remove(); }

QString Autosaver::path() const { return QDir(autosave_dir()).filePath(scenario_name(QCoreApplication::applicationPid())); }

// `changed` arrives while the undo stack is still taking the command, before it counts as
// modified: decide when the timer fires.
void Autosaver::onChanged() { timer_.start(); }  // restarts: written once the edits pause

void Autosaver::flush() {
    timer_.stop();
    if (!doc_->isModified()) {
        remove();
        return;
    }
    const qint64 pid = QCoreApplication::applicationPid();
    const QDir dir(autosave_dir());
    if (!dir.mkpath(QStringLiteral("."))) {
        error_ = tr("Cannot create the autosave folder %1").arg(dir.path());
        Q_EMIT failed(error_);
        return;
    }
    // The scenario first, then the sidecar that makes it visible to a later start.
    std::string problem = save_scenario_file(path().toStdString(), doc_->scenario());
    if (problem.empty()) {
        QJsonObject meta{{QStringLiteral("pid"), static_cast<double>(pid)},
                         {QStringLiteral("file"), doc_->filePath()},
                         {QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
        problem = save_text_atomically(dir.filePath(sidecar_name(pid)).toStdString(),
                                       QJsonDocument(meta).toJson().toStdString());
    }
    if (!problem.empty()) {
        error_ = tr("Autosave failed: %1").arg(QString::fromStdString(problem));
        Q_EMIT failed(error_);
        return;
    }
    error_.clear();
    Q_EMIT written(path());
}

void Autosaver::remove() {
    timer_.stop();
    remove_autosave({path(), {}, {}, QCoreApplication::applicationPid()});
}

}  // namespace comet::ui
