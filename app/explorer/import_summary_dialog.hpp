#pragma once
// What an import did: the fields it mapped and its warnings in a resizable, readable list, whether
// the imported strategy runs, and a button to find the best strategy at once.

#include <QDialog>
#include <string>
#include <vector>

class QPlainTextEdit;
class QPushButton;

namespace comet::app {

class ImportSummaryDialog : public QDialog {
    Q_OBJECT
public:
    // `verdict`: whether the imported configuration runs, and what happens next.
    ImportSummaryDialog(const QString& what, const std::vector<std::string>& mapped, const std::vector<std::string>& warnings,
                        const QString& verdict, QWidget* parent = nullptr);
    [[nodiscard]] QString verdict() const { return verdict_; }
    [[nodiscard]] QString details() const;

Q_SIGNALS:
    void findBestRequested();

private:
    QString verdict_;
    QPlainTextEdit* details_ = nullptr;
};

}  // namespace comet::app
