-- Sign-in nonces are kept in memory (auth::nonces): starting a sign-in writes nothing.
DROP TABLE auth_nonces;
