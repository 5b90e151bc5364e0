// SPDX-License-Identifier: GPL-3.0-or-later
// File > Export Image… and File > Export Read-Order Animation…: which view, which file (the
// format follows the suffix), the PNG scale or the animation's speed. A failed export says why
// in the dialog and leaves it open.
#pragma once

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ss::ui {

class MainWindow;

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { Image, Animation };

    ExportDialog(MainWindow& window, Kind kind);

    /// Shows the dialog (modal) for the window.
    static void run(MainWindow& window, Kind kind);

    /// The controls, for tests: `exportView`, `exportPath`, `exportScale`, `exportSpeed`,
    /// `exportError`.
    void setView(const QString& name);
    void setPath(const QString& path);
    QString errorText() const;

    /// Exports; closes the dialog when it worked, else shows the error and stays.
    void accept() override;

private:
    void browse();

    MainWindow& m_window;
    Kind m_kind;
    QComboBox* m_view;
    QLineEdit* m_path;
    QDoubleSpinBox* m_scale = nullptr;
    QSpinBox* m_speed = nullptr;
    QLabel* m_error;
};

} // namespace ss::ui
