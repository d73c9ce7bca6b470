package cctk;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in words: Java's file exceptions often carry only the path as their message
 * ("cannot read spec x.yaml: x.yaml"), which says nothing. <b>Note:</b> stateless.
 */
public final class IoErrors {

    private IoErrors() {
    }

    /** "permission denied", "no such file or directory", the operating system's reason, or the message. */
    public static String reason(final IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (check the file's owner and mode, and those of its directories)";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "a part of the path is not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "something that is not a directory is already there";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return why(e);
    }

    /**
     * Why {@code t} happened, in words, never null nor a class name: its message, or for the exceptions Java throws
     * without one (end of stream, a closed channel, a timeout) what they mean.
     */
    public static String why(final Throwable t) {
        if (t == null) {
            return "no reason given";
        }
        final String m = t.getMessage();
        if (m != null && !m.isBlank() && !m.equals("null")) {
            return m;
        }
        if (t instanceof EOFException) {
            return "the other end closed the connection";
        }
        if (t instanceof ClosedByInterruptException) {
            return "interrupted, which closed the connection";
        }
        if (t instanceof ClosedChannelException) {
            return "the connection was already closed";
        }
        if (t instanceof InterruptedIOException || t instanceof InterruptedException) {
            return "interrupted or timed out";
        }
        if (t.getCause() != null && t.getCause() != t) {
            return why(t.getCause());
        }
        return "no reason given";
    }
}
