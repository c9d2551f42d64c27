//! Which uploads are images Quire accepts: JPEG, PNG and GIF, told by their bytes.

/// Largest image accepted.
pub const MAX_IMAGE_BYTES: usize = 10 * 1024 * 1024;

/// An accepted image type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageType {
    /// JPEG.
    Jpeg,
    /// PNG.
    Png,
    /// GIF.
    Gif,
}

impl ImageType {
    /// Every accepted type.
    pub const ALL: [ImageType; 3] = [ImageType::Jpeg, ImageType::Png, ImageType::Gif];

    /// Recognizes the type from the file's first bytes; the name is never trusted.
    pub fn sniff(bytes: &[u8]) -> Option<ImageType> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageType::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageType::Png)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(ImageType::Gif)
        } else {
            None
        }
    }

    /// File extension.
    pub fn extension(self) -> &'static str {
        match self {
            ImageType::Jpeg => "jpg",
            ImageType::Png => "png",
            ImageType::Gif => "gif",
        }
    }

    /// MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            ImageType::Jpeg => "image/jpeg",
            ImageType::Png => "image/png",
            ImageType::Gif => "image/gif",
        }
    }

    /// The type with this MIME type.
    pub fn from_mime(mime: &str) -> Option<ImageType> {
        [ImageType::Jpeg, ImageType::Png, ImageType::Gif].into_iter().find(|t| t.mime() == mime)
    }

    /// The type of a stored file name `<64 hex>.<ext>`; `None` for any other name.
    pub fn of_stored_name(name: &str) -> Option<ImageType> {
        let (hash, ext) = name.split_once('.')?;
        let valid_hash = hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let kind = match ext {
            "jpg" => ImageType::Jpeg,
            "png" => ImageType::Png,
            "gif" => ImageType::Gif,
            _ => return None,
        };
        valid_hash.then_some(kind)
    }
}

#[cfg(test)]
mod tests {
    use super::ImageType;

    #[test]
    fn types_come_from_the_bytes() {
        assert_eq!(ImageType::sniff(b"\x89PNG\r\n\x1a\nrest"), Some(ImageType::Png));
        assert_eq!(ImageType::sniff(b"GIF89a..."), Some(ImageType::Gif));
        assert_eq!(ImageType::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(ImageType::Jpeg));
        assert_eq!(ImageType::sniff(b"<html><script>"), None);
        assert_eq!(ImageType::sniff(b""), None);
    }

    #[test]
    fn only_hash_names_are_stored_names() {
        let hash = "a".repeat(64);
        assert_eq!(ImageType::of_stored_name(&format!("{hash}.png")), Some(ImageType::Png));
        assert_eq!(ImageType::of_stored_name(&format!("{hash}.svg")), None);
        assert_eq!(ImageType::of_stored_name("../quire.db"), None);
        assert_eq!(ImageType::of_stored_name(&format!("{}.png", "A".repeat(64))), None);
    }
}
