public import NIOSSL

/// A self-signed certificate for 127.0.0.1 and localhost, for https on loopback in tests only.
///
/// Made once with `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 36500
/// -addext "subjectAltName=IP:127.0.0.1,DNS:localhost"`; its key guards nothing but these tests.
public enum LoopbackTLS {
    /// The certificate in PEM, for a client to trust or a test to read; the server pairs it with its key.
    public static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBzTCCAXKgAwIBAgIUWE2cWx9zQZiJeqHegL9WH1xRCCAwCgYIKoZIzj0EAwIw
        IzEhMB8GA1UEAwwYd2VhdGhlcmJvdCBsb29wYmFjayB0ZXN0MCAXDTI2MTEyMzE2
        MzgzMloYDzIxMjYxMDMwMTYzODMyWjAjMSEwHwYDVQQDDBh3ZWF0aGVyYm90IGxv
        b3BiYWNrIHRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATHduchBjNHClzL
        /7A9+XInQvUO3h5PYjbP58g7QLrBfAQAZqbhI70qfbuYD5Nt4Z+uW4k5T9rpOcZz
        Wk8lE5Nto4GBMH8wHQYDVR0OBBYEFND7KnmUgh3NdIylNaNWjFlcaFxyMB8GA1Ud
        IwQYMBaAFND7KnmUgh3NdIylNaNWjFlcaFxyMBoGA1UdEQQTMBGHBH8AAAGCCWxv
        Y2FsaG9zdDAMBgNVHRMBAf8EAjAAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMAoGCCqG
        SM49BAMCA0kAMEYCIQDVqvErHB9v04lDjnFNF6iiuBUqtcq+nxh0fqGEK5gDfwIh
        AMkCkPQK5B3N4dP0qNC8EZcIqr3jo+rGiz8mqBeb2orx
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgHFfjklJ8s9wEQwDR
        24yvD7VnkZpmIeqz8QRNl37jgsehRANCAATHduchBjNHClzL/7A9+XInQvUO3h5P
        YjbP58g7QLrBfAQAZqbhI70qfbuYD5Nt4Z+uW4k5T9rpOcZzWk8lE5Nt
        -----END PRIVATE KEY-----
        """

    static func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        return try NIOSSLContext(configuration: configuration)
    }

    /// Client settings that trust this certificate alone, and check it as usual otherwise.
    public static func clientConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)])
        return configuration
    }
}
