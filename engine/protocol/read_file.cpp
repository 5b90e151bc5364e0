// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol/read_file.h"

#include "core/error.h"
#include "core/tensor.h"
#include "protocol/request.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ss {

namespace {

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode)) return "it is a directory";
    if (S_ISFIFO(mode)) return "it is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(mode)) return "it is a character device, not a regular file";
    if (S_ISBLK(mode)) return "it is a block device, not a regular file";
    if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
    return "it is not a regular file";
}

[[noreturn]] void cannotRead(const std::string& path, const std::string& why)
{
    badRequest("cannot read '" + path + "': " + why);
}

} // namespace

void checkPath(std::string_view path)
{
    if (path.empty()) badRequest("the path is empty");
    if (path.find('\0') != std::string_view::npos) {
        std::string shown(path.substr(0, path.find('\0')));
        badRequest("the path '" + shown +
                   "\\0...' holds a NUL byte, which no file name may contain");
    }
}

void checkPath(const QString& path)
{
    checkPath(QFile::encodeName(path).toStdString());
}

int openRegularFile(const std::string& path, std::int64_t maxBytes, std::int64_t* size)
{
    checkPath(path);
    // Opened without blocking (opening a FIFO otherwise waits for a writer), then checked
    // before a byte is read.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) cannotRead(path, std::strerror(errno));
    struct stat info = {};
    if (::fstat(fd, &info) != 0) {
        const int error = errno;
        ::close(fd);
        cannotRead(path, std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        cannotRead(path, kindOf(info.st_mode));
    }
    if (std::int64_t(info.st_size) > maxBytes) {
        ::close(fd);
        cannotRead(path, "it is " + std::to_string(std::int64_t(info.st_size)) +
                             " bytes, over the limit of " + std::to_string(maxBytes) + " bytes");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (size) *size = std::int64_t(info.st_size);
    return fd;
}

namespace {

// Reads to the end, but never past the cap: the file may have grown since it was checked.
template <class Bytes> Bytes readWhole(const std::string& path, std::int64_t maxBytes)
{
    std::int64_t size = 0;
    const int fd = openRegularFile(path, maxBytes, &size);
    Bytes bytes;
    bytes.reserve(decltype(bytes.size())(size));
    char buffer[1 << 16];
    for (;;) {
        const std::int64_t room = maxBytes - std::int64_t(bytes.size());
        const ssize_t got = ::read(
            fd, buffer, std::size_t(std::min<std::int64_t>(std::int64_t(sizeof buffer), room + 1)));
        if (got < 0) {
            if (errno == EINTR) continue;
            const int error = errno;
            ::close(fd);
            cannotRead(path, std::strerror(error));
        }
        if (got == 0) break;
        if (got > room) {
            ::close(fd);
            cannotRead(path, "it grew past the limit of " + std::to_string(maxBytes) +
                                 " bytes while it was read");
        }
        bytes.append(buffer, decltype(bytes.size())(got));
    }
    ::close(fd);
    return bytes;
}

} // namespace

std::string readRegularFile(const std::string& path, std::int64_t maxBytes)
{
    return readWhole<std::string>(path, maxBytes);
}

QByteArray readRegularFile(const QString& path, std::int64_t maxBytes)
{
    if (path.startsWith(QLatin1String(":/"))) {
        // Built into the program (Qt's resource system): no file descriptor, and no FIFO or
        // device can be there, but the same cap holds.
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            cannotRead(path.toStdString(), file.errorString().toStdString());
        if (file.size() > maxBytes)
            cannotRead(path.toStdString(), "it is " + std::to_string(file.size()) +
                                               " bytes, over the limit of " +
                                               std::to_string(maxBytes) + " bytes");
        return file.readAll();
    }
    checkPath(path);
    return readWhole<QByteArray>(QFile::encodeName(path).toStdString(), maxBytes);
}

std::int64_t maxTextFileBytes()
{
    static const std::int64_t bytes = maxRequestLineBytes(Limits::machineDefault());
    return bytes;
}

} // namespace ss
