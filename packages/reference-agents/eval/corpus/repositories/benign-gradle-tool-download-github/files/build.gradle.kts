import java.io.File
import java.net.URL
import java.util.Base64

plugins {
    id("com.android.application") version "8.5.2" apply false
}

val gitSha: String = providers.exec { commandLine("git", "rev-parse", "--short", "HEAD") }.standardOutput.asText.get().trim()
extra["versionSuffix"] = gitSha

// CI provides the release keystore base64-encoded; write it where the signing config expects it.
System.getenv("RELEASE_KEYSTORE_B64")?.let { encoded ->
    val ks = Base64.getDecoder().decode(encoded)
    rootProject.file("release.keystore").writeBytes(ks)
}

val flatcVersion = "24.3.25"
tasks.register("fetchFlatc") {
    val out = layout.buildDirectory.file("tools/flatc")
    outputs.file(out)
    doLast {
        val target = out.get().asFile
        target.parentFile.mkdirs()
        URL("https://github.com/google/flatbuffers/releases/download/v$flatcVersion/Linux.flatc.binary.clang++-15.zip").openStream().use { input -> target.outputStream().use { input.copyTo(it) } }
        target.setExecutable(true)
    }
}

tasks.register<Exec>("generateSchemas") {
    dependsOn("fetchFlatc")
    commandLine(layout.buildDirectory.file("tools/flatc").get().asFile.absolutePath, "--kotlin", "-o", "app/src/main/generated", "schemas/notes.fbs")
}
