package org.tessera.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --size} values; a bad one is a usage error that says how to write a size. */
final class ByteSizeConverter implements ITypeConverter<ByteSize> {
    @Override
    public ByteSize convert(String text) {
        try {
            return ByteSize.parse(text);
        } catch (IllegalArgumentException bad) {
            throw new TypeConversionException(bad.getMessage());
        }
    }
}
