package demo;
public class App { public static void main(String[] a) {} }
