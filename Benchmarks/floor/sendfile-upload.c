// The floor of a one-file multipart upload to a local sink: the request
// curl -F and the uploader send, with the file's bytes written by the kernel
// (sendfile(2), page cache to socket, no copy through this process) after a
// head and part head written in one call. Nothing else is done: no MIME
// sniffing, no progress, no TLS. Benchmarks/compare.sh builds it with cc and
// prints its time beside ours and curl's.
//
//     sendfile-upload PORT PATH FILE
//
// Exits 0 when the server answers 2xx, 1 otherwise (with a message).
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "sendfile-upload: %s: %s\n", what, strerror(errno));
    return 1;
}

static int write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: sendfile-upload PORT PATH FILE\n");
        return 2;
    }
    int port = atoi(argv[1]);
    const char *path = argv[2], *file = argv[3];
    const char *name = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    int input = open(file, O_RDONLY);
    struct stat status;
    if (input < 0 || fstat(input, &status) != 0) return fail(file);

    static const char boundary[] = "------------------------floor0123456789abcdef";
    char part_head[1024], epilogue[128], head[2048];
    int part_length = snprintf(part_head, sizeof part_head,
        "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\nContent-Type: application/octet-stream\r\n\r\n",
        boundary, name);
    int epilogue_length = snprintf(epilogue, sizeof epilogue, "\r\n--%s--\r\n", boundary);
    long long content_length = part_length + (long long)status.st_size + epilogue_length;
    int head_length = snprintf(head, sizeof head,
        "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: sendfile-upload\r\nAccept: */*\r\n"
        "Content-Length: %lld\r\nContent-Type: multipart/form-data; boundary=%s\r\n\r\n%s",
        path, port, content_length, boundary, part_head);
    if (part_length <= 0 || epilogue_length <= 0 || head_length <= 0 || (size_t)head_length >= sizeof head) {
        fprintf(stderr, "sendfile-upload: the file name is too long\n");
        return 2;
    }

    int socket_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (socket_fd < 0 || connect(socket_fd, (struct sockaddr *)&address, sizeof address) != 0) return fail("connect");

    if (write_all(socket_fd, head, (size_t)head_length) != 0) return fail("write");
    off_t offset = 0;
    while (offset < status.st_size) {
        ssize_t sent = sendfile(socket_fd, input, &offset, (size_t)(status.st_size - offset));
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return fail("sendfile");
    }
    if (write_all(socket_fd, epilogue, (size_t)epilogue_length) != 0) return fail("write");

    // The answer: its head, then its body by Content-Length (or to the close).
    char answer[65536];
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        if (have == sizeof answer - 1) { fprintf(stderr, "sendfile-upload: the answer's head is too long\n"); return 1; }
        ssize_t got = read(socket_fd, answer + have, sizeof answer - 1 - have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return fail("read");
        have += (size_t)got;
        answer[have] = 0;
        end = strstr(answer, "\r\n\r\n");
    }
    int code = 0;
    if (sscanf(answer, "HTTP/1.%*d %d", &code) != 1 || code < 200 || code > 299) {
        fprintf(stderr, "sendfile-upload: the server answered %.*s\n", (int)(strchr(answer, '\r') - answer), answer);
        return 1;
    }
    long long body = -1;
    for (char *line = strstr(answer, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2) {
        if (strncasecmp(line, "content-length:", 15) == 0) body = atoll(line + 15);
    }
    long long left = body < 0 ? -1 : body - (long long)(have - (size_t)(end + 4 - answer));
    while (left != 0) {
        ssize_t got = read(socket_fd, answer, sizeof answer);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (left > 0) left -= got;
    }
    close(socket_fd);
    return 0;
}
